5func.func @mul_scalar_tensor(%a: f32, %b: tensor<3xf32>) {
  %0 = uop.mul %a, %b : f32, tensor<3xf32>
  return
}
