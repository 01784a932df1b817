2func.func @c307() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// cmplt i1->i1 [True, False] => false
