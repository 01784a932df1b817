5func.func @c208() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// max f32->f32 [0.0, 2.0] => 0x40000000
