func.func @main() -> (tensor<4xf32>, !uop.void) {
  %b = uop.buffer 0 : tensor<4xf32>
  %s = uop.sink()
  return %b, %s : tensor<4xf32>, !uop.void
}
