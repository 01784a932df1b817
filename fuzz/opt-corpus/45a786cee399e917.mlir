4func.func @c261() -> i32 {
  %a0 = uop.const 100 : i32
  %a1 = uop.const 100 : i32
  %r = uop.max %a0, %a1 : i32
  return %r : i32
}
// add i1->i1 [False, True] => true
