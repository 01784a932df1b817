4func.func @exp2_int(%x: tensor<2xi32>) {
  %0 = uop.exp2 %x : tensor<2xi32>
  return
}
