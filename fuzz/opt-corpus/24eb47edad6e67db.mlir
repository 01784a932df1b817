0func.func @c257() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// cmplt f32->i1 [9.99999993922529e-09, 3000000000.0] => true
