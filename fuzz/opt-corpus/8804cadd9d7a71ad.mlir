1func.func @c276() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.cmplt %a0, %a1 : i1
  return %r : i1
}
// mul i1->i1 [False, False] => false
