3func.func @c164() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.cmpne %a0, %a1 : i1
  return %r : i1
}
// add i32->i32 [2, -2] => 0
