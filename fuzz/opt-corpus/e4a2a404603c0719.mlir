1func.func @c150() -> f16 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0x7C00 : f16
  %r = uop.mul %a0, %a1 : f16
  return %r : f16
}
// cmpne i1->i1 [False, False] => false
