2func.func @c211() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// cmplt i1->i1 [False, True] => true
