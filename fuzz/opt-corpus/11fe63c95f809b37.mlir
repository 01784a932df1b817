5func.func @reshape_negative(%x: tensor<6xf32>) {
  %0 = uop.reshape %x, [-1, -6] : tensor<6xf32>
  return
}
