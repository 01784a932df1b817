0func.func @c299() -> f32 {
  %a0 = uop.const 0x3DCCCCCD : f32
  %r = uop.sin %a0 : f32
  return %r : f32
}
// exp2 f32->f32 [3000000000.0] => 0x7F800000
