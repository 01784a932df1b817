4func.func @c129() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const true
  %r = uop.cmpne %a0, %a1 : i1
  return %r : i1
}
// add i1->i1 [True, False] => true
