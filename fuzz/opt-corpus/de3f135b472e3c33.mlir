2func.func @c157() -> i32 {
  %a0 = uop.const -2 : i32
  %a1 = uop.const 1 : i32
  %r = uop.max %a0, %a1 : i32
  return %r : i32
}
// mul i1->i1 [True, False] => false
