4func.func @c105() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// cmpne i1->i1 [True, False] => true
