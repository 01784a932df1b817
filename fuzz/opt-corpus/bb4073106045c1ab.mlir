3// A contiguous input buffer as a root is aliased: no kernel.
func.func @main() -> tensor<2x4xf32> {
  %a = uop.buffer 0 : tensor<8xf32>
  %r = uop.reshape %a, [2, 4] : tensor<8xf32>
  return %r : tensor<2x4xf32>
}
