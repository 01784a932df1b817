2func.func @c289() -> f32 {
  %a0 = uop.const 0x00000000 : f32
  %r = uop.sqrt %a0 : f32
  return %r : f32
}
// exp2 f16->f16 [2.0] => 0x4400
