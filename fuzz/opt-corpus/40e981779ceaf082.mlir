0func.func @c89() -> f16 {
  %a0 = uop.const 0xC166 : f16
  %r = uop.cast %a0 : f16 to f16
  return %r : f16
}
// recip f32->f32 [0.0010000000474974513] => 0x4479FFFF
