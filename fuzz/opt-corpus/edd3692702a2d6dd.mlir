1func.func @c36() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.cmpne %a0, %a1 : i1
  return %r : i1
}
// mul i1->i1 [True, False] => false
