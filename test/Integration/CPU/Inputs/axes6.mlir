// Six non-trivial output axes (2 x 3 x 4 x 5 x 6 x 8) read through a
// permute: more axes than a GPU grid has dimensions.
func.func @main() -> tensor<2x3x4x5x6x8xf32> {
  %x = uop.buffer 0 : tensor<5760xf32>
  %r = uop.reshape %x, [8, 6, 5, 4, 3, 2] : tensor<5760xf32>
  %p = uop.permute %r, [5, 4, 3, 2, 1, 0] : tensor<8x6x5x4x3x2xf32>
  %c = uop.const dense<1.5> : tensor<2x3x4x5x6x8xf32>
  %y = uop.mul %p, %c : tensor<2x3x4x5x6x8xf32>
  return %y : tensor<2x3x4x5x6x8xf32>
}
