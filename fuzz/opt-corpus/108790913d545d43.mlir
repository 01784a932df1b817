0func.func @index_too_many(%t: tensor<3xf32>, %i: i32) {
  %0 = uop.index %t[%i, %i] : tensor<3xf32>
  return
}
