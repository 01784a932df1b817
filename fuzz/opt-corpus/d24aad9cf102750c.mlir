4func.func @stack_shape(%a: tensor<2xi32>, %b: tensor<3xi32>) {
  %0 = uop.stack %a, %b : tensor<2xi32>, tensor<3xi32>
  return
}
