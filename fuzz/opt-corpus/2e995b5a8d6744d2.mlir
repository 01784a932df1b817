5func.func @c10() -> i32 {
  %a0 = uop.const -2147483648 : i32
  %a1 = uop.const 2 : i32
  %r = uop.floordiv %a0, %a1 : i32
  return %r : i32
}
// max i1->i1 [True, False] => true
