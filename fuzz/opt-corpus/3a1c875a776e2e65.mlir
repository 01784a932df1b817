5func.func @c58() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// cmplt i32->i1 [0, -1] => false
