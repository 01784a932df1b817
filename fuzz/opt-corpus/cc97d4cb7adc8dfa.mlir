3func.func @expand_rank(%x: tensor<3xf32>) {
  %0 = uop.expand %x, [2, 3] : tensor<3xf32>
  return
}
