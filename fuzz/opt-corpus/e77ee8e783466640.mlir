4// gpu + local: GLOBAL and LOCAL ranges.
func.func @gpu() -> tensor<64xf32> attributes {uop.opts = #uop.opts<gpu, local = {0: 16}>} {
  %a = uop.buffer 0 : tensor<64xf32>
  %0 = uop.sin %a : tensor<64xf32>
  return %0 : tensor<64xf32>
}
