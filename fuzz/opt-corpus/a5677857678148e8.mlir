3// A scalar root: r_1. #uop.opts is copied to every kernel.
func.func @main() -> f32 attributes {uop.opts = #uop.opts<unroll = 4>} {
  %a = uop.buffer 0 : tensor<16xf32>
  %s = uop.reduce %a <add> pop 1 : tensor<16xf32>
  return %s : f32
}
