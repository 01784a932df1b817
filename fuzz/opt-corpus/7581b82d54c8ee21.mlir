2func.func @c253() -> f16 {
  %a0 = uop.const 0x7E00 : f16
  %r = uop.sqrt %a0 : f16
  return %r : f16
}
// max f32->f32 [-1.0, 0.20000000298023224] => 0x3E4CCCCD
