3func.func @c272() -> f16 {
  %a0 = uop.const 0x7E00 : f16
  %r = uop.sin %a0 : f16
  return %r : f16
}
// cmplt i1->i1 [True, True] => false
