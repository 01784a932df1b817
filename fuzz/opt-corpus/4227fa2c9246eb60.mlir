2func.func @c7() -> i1 {
  %a0 = uop.const -100 : i32
  %a1 = uop.const 13 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// cast i32->f32 [-100] => 0xC2C80000
