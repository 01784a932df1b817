4func.func @c69() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const true
  %r = uop.cmpne %a0, %a1 : i1
  return %r : i1
}
// add f32->f32 [0.0010000000474974513, -9.999999680285692e+37] => 0xFE967699
