4func.func @c21() -> f16 {
  %a0 = uop.const 0x6400 : f16
  %r = uop.recip %a0 : f16
  return %r : f16
}
// cmplt i1->i1 [True, True] => false
