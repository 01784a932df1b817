// A shape mismatch: uop.compile raises uop.CompileError with this file's location.
func.func @main() -> tensor<2xf32> {
  %a = uop.buffer 0 : tensor<2xf32>
  %b = uop.buffer 1 : tensor<3xf32>
  %c = uop.add %a, %b : tensor<2xf32>, tensor<3xf32>
  return %c : tensor<2xf32>
}
