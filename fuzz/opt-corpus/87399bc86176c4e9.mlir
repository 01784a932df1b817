3func.func private @e_4() -> tensor<4xf32> attributes {uop.kernel} {
  %b = uop.buffer 0 : tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func @main() -> tensor<2x2xf32> attributes {uop.host} {
  %b = uop.buffer 0 : tensor<4xf32>
  %l = uop.launch @e_4(%b) : (tensor<4xf32>) -> tensor<2x2xf32>
  return %l : tensor<2x2xf32>
}
