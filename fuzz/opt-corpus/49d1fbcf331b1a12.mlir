3// A shrink of a buffer is not contiguous: it is copied by a kernel.
func.func @main() -> tensor<4xf32> {
  %a = uop.buffer 0 : tensor<8xf32>
  %r = uop.shrink %a [2:6] : tensor<8xf32>
  return %r : tensor<4xf32>
}
