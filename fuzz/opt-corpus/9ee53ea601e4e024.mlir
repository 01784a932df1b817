5func.func @c34() -> f16 {
  %a0 = uop.const 0x3266 : f16
  %a1 = uop.const 0x7E00 : f16
  %r = uop.mul %a0, %a1 : f16
  return %r : f16
}
// add i1->i1 [True, True] => true
