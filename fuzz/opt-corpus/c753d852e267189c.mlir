3func.func @cmpne_shape(%a: tensor<2xi32>, %b: tensor<2x1xi32>) {
  %0 = uop.cmpne %a, %b : tensor<2xi32>, tensor<2x1xi32>
  return
}
