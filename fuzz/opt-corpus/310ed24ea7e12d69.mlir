5// Four non-trivial output axes: no CPU opts; the GPU grid has only 3.
func.func private @e_4_4_4_4() -> tensor<4x4x4x4xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<256xf32>
  %r = uop.reshape %a, [4, 4, 4, 4] : tensor<256xf32>
  %e = uop.exp2 %r : tensor<4x4x4x4xf32>
  return %e : tensor<4x4x4x4xf32>
}
