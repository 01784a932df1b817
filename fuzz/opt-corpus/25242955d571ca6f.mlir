2func.func @max_dtype(%a: i1, %b: i32) {
  %0 = uop.max %a, %b : i1, i32
  return
}
