5func.func @c232() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.cmpne %a0, %a1 : i1
  return %r : i1
}
// cmpne i1->i1 [True, False] => true
