3func.func @main() -> tensor<4xf32> attributes {uop.host} {
  %b = uop.buffer 0 : tensor<4xf32>
  %l = uop.launch @nope(%b) : (tensor<4xf32>) -> tensor<4xf32>
  return %l : tensor<4xf32>
}
