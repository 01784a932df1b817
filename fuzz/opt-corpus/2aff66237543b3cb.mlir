3func.func @c2() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.add %a0, %a1 : i1
  return %r : i1
}
// max i1->i1 [True, False] => true
