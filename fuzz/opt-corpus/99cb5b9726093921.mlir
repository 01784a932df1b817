0// Row sums of 512x4: a 4x upcast of the one output axis; on the GPU one axis
// may take the whole 256-thread block.
func.func private @r_512() -> tensor<512xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<2048xf32>
  %r = uop.reshape %a, [512, 4] : tensor<2048xf32>
  %c = uop.reduce %r <add> pop 1 : tensor<512x4xf32>
  return %c : tensor<512xf32>
}
