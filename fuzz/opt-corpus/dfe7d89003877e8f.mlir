2func.func @c277() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// add f32->f32 [9.99994610111476e-41, -1.0] => 0xBF800000
