0func.func @shrink_rank(%x: tensor<4x4xf32>) {
  %0 = uop.shrink %x [0:1] : tensor<4x4xf32>
  return
}
