3func.func @const_shaped_scalar() {
  %0 = "uop.const"() <{value = 1.0 : f32}> : () -> tensor<1xf32>
  return
}
