3func.func @c44() -> f32 {
  %a0 = uop.const 0xC3480000 : f32
  %a1 = uop.const 0x4F32D05E : f32
  %r = uop.max %a0, %a1 : f32
  return %r : f32
}
// add i1->i1 [False, False] => false
