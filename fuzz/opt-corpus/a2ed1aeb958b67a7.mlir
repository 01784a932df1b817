0func.func @c119() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// cmpne i32->i1 [7, -100] => true
