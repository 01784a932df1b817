5func.func @c274() -> f32 {
  %a0 = uop.const 0x40000000 : f32
  %a1 = uop.const 0x4F32D05E : f32
  %r = uop.mul %a0, %a1 : f32
  return %r : f32
}
// floormod i32->i32 [65536, -7] => -5
