2// WHERE shape mismatch.
func.func @where_shape(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) {
  %0 = uop.where %c, %a, %b : i1, tensor<4xf32>, tensor<4xf32>
  return
}
