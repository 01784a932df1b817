5func.func @c220() -> f32 {
  %a0 = uop.const 0x3F800000 : f32
  %r = uop.recip %a0 : f32
  return %r : f32
}
// add i1->i1 [False, False] => false
