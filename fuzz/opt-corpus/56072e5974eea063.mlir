4func.func @permute_rank(%x: tensor<2x3xf32>) {
  %0 = uop.permute %x, [1, 0, 2] : tensor<2x3xf32>
  return
}
