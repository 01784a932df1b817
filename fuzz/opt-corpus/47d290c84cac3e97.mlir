0func.func @reshape_overflow(%x: tensor<4xf32>) {
  %0 = uop.reshape %x, [4611686018427387904, 4] : tensor<4xf32>
  return
}
