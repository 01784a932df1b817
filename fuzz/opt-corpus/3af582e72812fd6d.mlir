0func.func @c167() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.add %a0, %a1 : i1
  return %r : i1
}
// exp2 f32->f32 [inf] => 0x7F800000
