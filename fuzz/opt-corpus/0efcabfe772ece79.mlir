1func.func @c90() -> f32 {
  %a0 = uop.const 0x3A83126F : f32
  %r = uop.recip %a0 : f32
  return %r : f32
}
// sqrt f32->f32 [nan] => 0x7FC00000
