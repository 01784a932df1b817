1func.func @c234() -> f32 {
  %a0 = uop.const 0x322BCC77 : f32
  %r = uop.log2 %a0 : f32
  return %r : f32
}
// mul i1->i1 [True, True] => true
