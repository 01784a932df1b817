5func.func @c64() -> f16 {
  %a0 = uop.const 0x7C00 : f16
  %r = uop.exp2 %a0 : f16
  return %r : f16
}
// max f16->f16 [0.0, 0.0] => 0x0000
