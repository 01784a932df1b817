0func.func @c155() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// add f32->f32 [200.0, 16777216.0] => 0x4B800064
