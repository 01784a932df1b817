0func.func @c95() -> f16 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0x0000 : f16
  %r = uop.mul %a0, %a1 : f16
  return %r : f16
}
// max f16->f16 [inf, 65504.0] => 0x7C00
