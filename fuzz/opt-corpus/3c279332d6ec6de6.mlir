5func.func @c316() -> f16 {
  %a0 = uop.const 0xC02CCCCD : f32
  %r = uop.cast %a0 : f32 to f16
  return %r : f16
}
// mul i1->i1 [True, True] => true
