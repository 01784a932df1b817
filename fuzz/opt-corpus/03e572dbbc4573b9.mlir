0// INDEX indices are i32 scalars.
func.func @index_float(%t: tensor<3xf32>, %i: f32) {
  %0 = uop.index %t[%i] : tensor<3xf32>, f32
  return
}
