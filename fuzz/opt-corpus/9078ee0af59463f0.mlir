1func.func @c132() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// add f32->f32 [9.999999680285692e+37, -2.700000047683716] => 0x7E967699
