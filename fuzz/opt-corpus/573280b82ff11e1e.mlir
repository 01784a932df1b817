1func.func @c120() -> i1 {
  %a0 = uop.const 7 : i32
  %a1 = uop.const -100 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// cmplt i1->i1 [False, True] => true
