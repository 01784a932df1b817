0func.func @c287() -> i1 {
  %a0 = uop.const -100 : i32
  %a1 = uop.const 2 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// add i1->i1 [True, False] => true
