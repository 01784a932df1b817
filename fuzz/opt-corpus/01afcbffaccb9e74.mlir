4func.func @args(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uop.exp2 %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
