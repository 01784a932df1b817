3func.func @c218() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// add f32->f32 [9.99999993922529e-09, 0.10000000149011612] => 0x3DCCCCCE
