2func.func @c175() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const true
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// max f32->f32 [3000000000.0, nan] => 0x4F32D05E
