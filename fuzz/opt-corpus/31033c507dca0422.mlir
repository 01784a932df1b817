3func.func @c14() -> f16 {
  %a0 = uop.const 0x2E66 : f16
  %r = uop.log2 %a0 : f16
  return %r : f16
}
// cmpne i32->i1 [2, 3] => true
