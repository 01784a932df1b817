1// PERMUTE needs a permutation of the axes.
func.func @permute_dup(%x: tensor<2x3xf32>) {
  %0 = uop.permute %x, [0, 0] : tensor<2x3xf32>
  return
}
