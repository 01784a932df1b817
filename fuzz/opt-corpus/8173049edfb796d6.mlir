5func.func @c142() -> f16 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0x1419 : f16
  %r = uop.add %a0, %a1 : f16
  return %r : f16
}
// recip f32->f32 [16777216.0] => 0x33800000
