5func.func @c244() -> i1 {
  %a0 = uop.const -7 : i32
  %a1 = uop.const 2147483647 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// cast i32->f32 [-7] => 0xC0E00000
