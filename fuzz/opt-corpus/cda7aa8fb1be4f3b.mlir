3// stage_broadcast_compute: exp2 of a 64x64 buffer (4096 ALU-elements) is
// broadcast 4x: staged into its own kernel.
func.func @main() -> tensor<64x64x4xf32> {
  %a = uop.buffer 0 : tensor<4096xf32>
  %x = uop.reshape %a, [64, 64, 1] : tensor<4096xf32>
  %e = uop.exp2 %x : tensor<64x64x1xf32>
  %b = uop.expand %e, [64, 64, 4] : tensor<64x64x1xf32>
  return %b : tensor<64x64x4xf32>
}
