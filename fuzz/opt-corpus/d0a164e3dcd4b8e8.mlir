1func.func @c168() -> f32 {
  %a0 = uop.const 0x7F800000 : f32
  %r = uop.exp2 %a0 : f32
  return %r : f32
}
// cmpne i1->i1 [False, True] => true
