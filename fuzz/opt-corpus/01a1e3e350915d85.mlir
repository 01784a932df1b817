4func.func @c3() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// recip f32->f32 [-1.0] => 0xBF800000
