// Nine non-trivial output axes, a reduction over a tenth: the row sums of a
// 2 x 3 x 2 x 5 x 2 x 3 x 2 x 2 x 3 tensor of rows of 4, read permuted.
func.func @main() -> tensor<2x3x2x5x2x3x2x2x3xf32> {
  %x = uop.buffer 0 : tensor<17280xf32>
  %r = uop.reshape %x, [3, 2, 2, 3, 2, 5, 2, 3, 2, 4] : tensor<17280xf32>
  %p = uop.permute %r, [8, 7, 6, 5, 4, 3, 2, 1, 0, 9] : tensor<3x2x2x3x2x5x2x3x2x4xf32>
  %s = uop.reduce %p <add> pop 1 : tensor<2x3x2x5x2x3x2x2x3x4xf32>
  return %s : tensor<2x3x2x5x2x3x2x2x3xf32>
}
