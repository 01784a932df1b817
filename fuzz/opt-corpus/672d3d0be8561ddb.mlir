5func.func @c22() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.cmplt %a0, %a1 : i1
  return %r : i1
}
// cmpne i32->i1 [46341, 7] => true
