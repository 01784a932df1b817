4func.func @c207() -> f16 {
  %a0 = uop.const 0xFC00 : f16
  %r = uop.log2 %a0 : f16
  return %r : f16
}
// max i1->i1 [True, False] => true
