2func.func @c85() -> f16 {
  %a0 = uop.const -100 : i32
  %r = uop.cast %a0 : i32 to f16
  return %r : f16
}
// max i1->i1 [False, True] => true
