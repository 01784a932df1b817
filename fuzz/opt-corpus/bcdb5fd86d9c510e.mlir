5func.func @c196() -> i1 {
  %a0 = uop.const 2147483647 : i32
  %r = uop.cast %a0 : i32 to i1
  return %r : i1
}
// cmplt i1->i1 [False, True] => true
