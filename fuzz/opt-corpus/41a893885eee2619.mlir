3// RESHAPE keeps the element count.
func.func @reshape_count(%x: tensor<6xf32>) {
  %0 = uop.reshape %x, [4] : tensor<6xf32>
  return
}
