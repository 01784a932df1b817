5func.func @c124() -> f32 {
  %a0 = uop.const 0x43480000 : f32
  %r = uop.recip %a0 : f32
  return %r : f32
}
// max i1->i1 [True, False] => true
