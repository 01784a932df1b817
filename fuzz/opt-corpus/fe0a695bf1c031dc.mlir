3func.func @c176() -> f32 {
  %a0 = uop.const 0x4F32D05E : f32
  %a1 = uop.const 0x7FC00000 : f32
  %r = uop.max %a0, %a1 : f32
  return %r : f32
}
// add i32->i32 [-2, -1] => -3
