5func.func @c130() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.add %a0, %a1 : i1
  return %r : i1
}
// recip f32->f32 [2.0] => 0x3F000000
