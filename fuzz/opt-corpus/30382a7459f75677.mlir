3func.func @reduce_negative(%x: tensor<4x4xf32>) {
  %0 = uop.reduce %x <max> pop -1 : tensor<4x4xf32>
  return
}
