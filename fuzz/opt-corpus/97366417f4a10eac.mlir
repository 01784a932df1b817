3// The same with 32x32 (1024 ALU-elements): recomputing is cheaper, one kernel.
func.func @main() -> tensor<32x32x4xf32> {
  %a = uop.buffer 0 : tensor<1024xf32>
  %x = uop.reshape %a, [32, 32, 1] : tensor<1024xf32>
  %e = uop.exp2 %x : tensor<32x32x1xf32>
  %b = uop.expand %e, [32, 32, 4] : tensor<32x32x1xf32>
  return %b : tensor<32x32x4xf32>
}
