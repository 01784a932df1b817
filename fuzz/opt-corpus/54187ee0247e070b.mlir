1func.func @c96() -> f16 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0x7BFF : f16
  %r = uop.max %a0, %a1 : f16
  return %r : f16
}
// sin f32->f32 [0.20000000298023224] => 0x3E4B6FF9
