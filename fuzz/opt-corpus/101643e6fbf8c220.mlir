0func.func @c233() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.cmpne %a0, %a1 : i1
  return %r : i1
}
// log2 f32->f32 [9.99999993922529e-09] => 0xC1D49A78
