5// A kernel that names its opts keeps them (a function-level #uop.opts that
// uop-kernelize copied).
func.func private @e_8() -> tensor<8xf32> attributes {uop.kernel, uop.opts = #uop.opts<unroll = 2>} {
  %a = uop.buffer 0 : tensor<8xf32>
  %e = uop.exp2 %a : tensor<8xf32>
  return %e : tensor<8xf32>
}
