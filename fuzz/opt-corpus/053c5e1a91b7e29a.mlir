5func.func @cmplt_dtype(%a: tensor<2xf16>, %b: tensor<2xf32>) {
  %0 = uop.cmplt %a, %b : tensor<2xf16>, tensor<2xf32>
  return
}
