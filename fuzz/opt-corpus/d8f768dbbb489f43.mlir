2func.func @c163() -> i32 {
  %a0 = uop.const 100 : i32
  %a1 = uop.const 7 : i32
  %r = uop.floordiv %a0, %a1 : i32
  return %r : i32
}
// cmpne i1->i1 [True, False] => true
