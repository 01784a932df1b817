// An axis of 70001 blocks (odd: no threads divide it) before one of 3:
// more blocks than a grid's y takes (65535).
func.func @main() -> tensor<70001x3xf32> {
  %x = uop.buffer 0 : tensor<210003xf32>
  %r = uop.reshape %x, [3, 70001] : tensor<210003xf32>
  %p = uop.permute %r, [1, 0] : tensor<3x70001xf32>
  %c = uop.const dense<2.0> : tensor<70001x3xf32>
  %y = uop.add %p, %c : tensor<70001x3xf32>
  return %y : tensor<70001x3xf32>
}
