1func.func @shrink_range(%x: tensor<4xf32>) {
  %0 = uop.shrink %x [0:5] : tensor<4xf32>
  return
}
