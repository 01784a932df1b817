0func.func @c143() -> f32 {
  %a0 = uop.const 0x4B800000 : f32
  %r = uop.recip %a0 : f32
  return %r : f32
}
// mul f32->f32 [-inf, -1.0] => 0x7F800000
