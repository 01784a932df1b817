2func.func @c13() -> f32 {
  %a0 = uop.const 0x4F32D05E : f32
  %r = uop.exp2 %a0 : f32
  return %r : f32
}
// log2 f16->f16 [0.0999755859375] => 0xC2A5
