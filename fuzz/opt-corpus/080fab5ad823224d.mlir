1func.func @c300() -> f32 {
  %a0 = uop.const 0x4F32D05E : f32
  %r = uop.exp2 %a0 : f32
  return %r : f32
}
// floormod i32->i32 [-1, -2] => -1
