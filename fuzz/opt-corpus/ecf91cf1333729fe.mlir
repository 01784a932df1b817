3// Passes and pipelines given the wrong place or level say so, never abort.
func.func @main() -> tensor<8xf32> {
  %a = uop.buffer 0 : tensor<8xf32>
  %e = uop.exp2 %a : tensor<8xf32>
  return %e : tensor<8xf32>
}
