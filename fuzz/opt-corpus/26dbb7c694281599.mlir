0func.func @c281() -> f16 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0x0000 : f16
  %r = uop.mul %a0, %a1 : f16
  return %r : f16
}
// mul i1->i1 [True, False] => false
