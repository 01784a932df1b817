4func.func @c219() -> f32 {
  %a0 = uop.const 0x322BCC77 : f32
  %a1 = uop.const 0x3DCCCCCD : f32
  %r = uop.add %a0, %a1 : f32
  return %r : f32
}
// recip f32->f32 [1.0] => 0x3F800000
