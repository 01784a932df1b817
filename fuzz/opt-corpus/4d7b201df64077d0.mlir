5// A rank-0 tensor is spelled as the bare scalar.
func.func @rank0(%a: tensor<f32>) {
  %0 = uop.exp2 %a : tensor<f32>
  return
}
