0func.func @c185() -> f16 {
  %a0 = uop.const 0x0000 : f16
  %a1 = uop.const 0x5A40 : f16
  %r = uop.max %a0, %a1 : f16
  return %r : f16
}
// add i1->i1 [False, True] => true
