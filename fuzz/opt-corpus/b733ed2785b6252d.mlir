4// upcast {0: 2}: two unrolled copies per iteration of a halved loop; the
// copies END the same loop once, over a SINK (the seed's merge_ends).
func.func @upcast() -> tensor<8xf32> attributes {uop.opts = #uop.opts<upcast = {0: 2}>} {
  %a = uop.buffer 0 : tensor<8xf32>
  %0 = uop.exp2 %a : tensor<8xf32>
  return %0 : tensor<8xf32>
}
