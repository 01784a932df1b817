4func.func @c201() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// sin f32->f32 [65520.0] => 0xBF5EDE71
