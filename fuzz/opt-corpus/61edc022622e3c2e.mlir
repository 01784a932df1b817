2func.func @c151() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.cmpne %a0, %a1 : i1
  return %r : i1
}
// add i32->i32 [-1, 1] => 0
