1func.func @expand_non_one(%x: tensor<2x3xf32>) {
  %0 = uop.expand %x, [4, 3] : tensor<2x3xf32>
  return
}
