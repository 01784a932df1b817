1// Elementwise 256x256: no tile (nothing reduces), threads on axis 0.
func.func private @e_256_256() -> tensor<256x256xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<65536xf32>
  %r = uop.reshape %a, [256, 256] : tensor<65536xf32>
  %e = uop.exp2 %r : tensor<256x256xf32>
  return %e : tensor<256x256xf32>
}
