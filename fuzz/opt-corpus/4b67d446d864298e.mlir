5func.func @c112() -> f32 {
  %a0 = uop.const 0xFF800000 : f32
  %r = uop.recip %a0 : f32
  return %r : f32
}
// log2 f32->f32 [3000000000.0] => 0x41FBDBC8
