4// Binary ops: shape mismatch (test_shape_dtype_inference: stack(1, 2) + stack(1, 2, 3)).
func.func @add_shape(%a: tensor<2xi32>, %b: tensor<3xi32>) {
  %0 = uop.add %a, %b : tensor<2xi32>, tensor<3xi32>
  return
}
