5func.func @index_tensor(%t: tensor<3xf32>, %i: tensor<2xi32>) {
  %0 = uop.index %t[%i] : tensor<3xf32>, tensor<2xi32>
  return
}
