3func.func @c212() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const true
  %r = uop.cmplt %a0, %a1 : i1
  return %r : i1
}
// mul i1->i1 [True, True] => true
