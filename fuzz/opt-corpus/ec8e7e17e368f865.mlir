3func.func @c146() -> i1 {
  %a0 = uop.const 0 : i32
  %r = uop.cast %a0 : i32 to i1
  return %r : i1
}
// cmpne i1->i1 [False, True] => true
