0func.func @c83() -> f32 {
  %a0 = uop.const 0xC3480000 : f32
  %a1 = uop.const 0x3A83126F : f32
  %r = uop.max %a0, %a1 : f32
  return %r : f32
}
// cmpne i32->i1 [-100, 100] => true
