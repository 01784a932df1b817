2func.func @c229() -> i32 {
  %a0 = uop.const -2 : i32
  %a1 = uop.const 100 : i32
  %r = uop.max %a0, %a1 : i32
  return %r : i32
}
// cast i32->i1 [-2] => true
