3// LOAD needs memory.
func.func @load_value(%x: tensor<4xf32>) {
  %0 = uop.load %x : tensor<4xf32>
  return
}
