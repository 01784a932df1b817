4func.func @c81() -> i1 {
  %a0 = uop.const 0x4300 : f16
  %a1 = uop.const 0x3800 : f16
  %r = uop.cmpne %a0, %a1 : f16
  return %r : i1
}
// max i32->i32 [7, 3] => 7
