2func.func @c259() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// cmplt i32->i1 [0, -2] => false
