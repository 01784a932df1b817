3func.func @shrink_reversed(%x: tensor<4xf32>) {
  %0 = uop.shrink %x [3:1] : tensor<4xf32>
  return
}
