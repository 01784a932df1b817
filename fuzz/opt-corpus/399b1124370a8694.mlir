3func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = uop.exp2 %x : tensor<4xf32>
  return %e : tensor<4xf32>
}
