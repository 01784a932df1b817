1// A full sum of 16 elements: no output axis to tile, so the reduce is
// unrolled 4x (16 % 4 == 0, 16 < 64); the GPU gets a 1-block grid.
func.func private @r_() -> f32 attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<16xf32>
  %c = uop.reduce %a <add> pop 1 : tensor<16xf32>
  return %c : f32
}
