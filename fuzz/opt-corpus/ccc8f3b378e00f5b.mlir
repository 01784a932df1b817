2func.func @c49() -> f32 {
  %a0 = uop.const 0x80000000 : f32
  %a1 = uop.const 0x3F800000 : f32
  %r = uop.mul %a0, %a1 : f32
  return %r : f32
}
// max f32->f32 [65504.0, 3.5] => 0x477FE000
