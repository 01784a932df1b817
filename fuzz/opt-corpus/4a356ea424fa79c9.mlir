1// A 6x10 output reducing 8: 2x2 (4 does not divide 6 or 10); no threads.
func.func private @r_6_10() -> tensor<6x10xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<480xf32>
  %r = uop.reshape %a, [6, 10, 8] : tensor<480xf32>
  %c = uop.reduce %r <add> pop 1 : tensor<6x10x8xf32>
  return %c : tensor<6x10xf32>
}
