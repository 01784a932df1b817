0func.func @c305() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// max f32->f32 [0.10000000149011612, 0.5] => 0x3F000000
