4func.func @c153() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// add i1->i1 [True, True] => true
