0func.func @c221() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.add %a0, %a1 : i1
  return %r : i1
}
// mul i1->i1 [False, True] => false
