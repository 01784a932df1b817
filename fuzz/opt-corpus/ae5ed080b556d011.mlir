2func.func @c55() -> f32 {
  %a0 = uop.const -46341 : i32
  %r = uop.cast %a0 : i32 to f32
  return %r : f32
}
// max i1->i1 [True, True] => true
