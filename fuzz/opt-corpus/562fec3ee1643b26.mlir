3// REDUCE pops 0..rank axes.
func.func @reduce_too_many(%x: tensor<4x4xf32>) {
  %0 = uop.reduce %x <add> pop 3 : tensor<4x4xf32>
  return
}
