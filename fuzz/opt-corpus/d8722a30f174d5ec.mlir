2func.func @c121() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const true
  %r = uop.cmplt %a0, %a1 : i1
  return %r : i1
}
// cmplt f32->i1 [0.0, -200.0] => false
