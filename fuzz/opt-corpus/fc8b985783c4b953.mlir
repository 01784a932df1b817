3func.func @c200() -> i1 {
  %a0 = uop.const 65536 : i32
  %a1 = uop.const -2147483648 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// max i1->i1 [False, False] => false
