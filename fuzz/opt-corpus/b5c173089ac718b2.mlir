3func.func @c254() -> f32 {
  %a0 = uop.const 0xBF800000 : f32
  %a1 = uop.const 0x3E4CCCCD : f32
  %r = uop.max %a0, %a1 : f32
  return %r : f32
}
// cmpne i32->i1 [46341, 0] => true
