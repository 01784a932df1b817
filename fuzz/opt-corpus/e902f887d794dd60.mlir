5func.func @c304() -> f32 {
  %a0 = uop.const 0x477FE000 : f32
  %r = uop.exp2 %a0 : f32
  return %r : f32
}
// max i1->i1 [True, False] => true
