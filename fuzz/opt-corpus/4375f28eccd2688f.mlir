3func.func @c128() -> f16 {
  %a0 = uop.const 0xC166 : f16
  %a1 = uop.const 0xFC00 : f16
  %r = uop.mul %a0, %a1 : f16
  return %r : f16
}
// cmpne i1->i1 [False, True] => true
