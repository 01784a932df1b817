2// Elements whose folding C leaves undefined stay for run time; the others
// fold.
func.func @partial() -> tensor<2xi32> {
  %a = uop.const dense<[7, 8]> : tensor<2xi32>
  %b = uop.const dense<[2, 0]> : tensor<2xi32>
  %0 = uop.floordiv %a, %b : tensor<2xi32>
  return %0 : tensor<2xi32>
}
