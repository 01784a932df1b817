0func.func @c131() -> f32 {
  %a0 = uop.const 0x40000000 : f32
  %r = uop.recip %a0 : f32
  return %r : f32
}
// mul i1->i1 [False, False] => false
