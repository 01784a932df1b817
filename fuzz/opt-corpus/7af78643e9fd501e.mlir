4func.func @c45() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.add %a0, %a1 : i1
  return %r : i1
}
// cmpne f32->i1 [9.999999680285692e+37, 9.99999993922529e-09] => true
