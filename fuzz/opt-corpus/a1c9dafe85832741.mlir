0func.func @c203() -> i1 {
  %a0 = uop.const 0x00000000 : f32
  %a1 = uop.const 0x000116C2 : f32
  %r = uop.cmpne %a0, %a1 : f32
  return %r : i1
}
// floordiv i32->i32 [-46341, -2147483648] => 0
