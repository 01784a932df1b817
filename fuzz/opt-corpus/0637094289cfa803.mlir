0func.func @buffer_negative_slot() {
  %0 = uop.buffer -1 : tensor<4xf32>
  return
}
