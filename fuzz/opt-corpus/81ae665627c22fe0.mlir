3func.func @c170() -> f16 {
  %a0 = uop.const 0x0000 : f16
  %a1 = uop.const 0x7C00 : f16
  %r = uop.add %a0, %a1 : f16
  return %r : f16
}
// max f16->f16 [inf, -0.0] => 0x7C00
