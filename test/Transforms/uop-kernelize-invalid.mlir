// RUN: uop-opt %s --split-input-file --verify-diagnostics --uop-kernelize

// expected-error @+1 {{uop-kernelize: shaped programs read uop.buffer slots; this function takes arguments}}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = uop.exp2 %x : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

func.func @main() -> tensor<4xf32> attributes {uop.host} {
  %b = uop.buffer 0 : tensor<4xf32>
  // expected-error @+1 {{'uop.launch' op 'nope' does not name a kernel function}}
  %l = uop.launch @nope(%b) : (tensor<4xf32>) -> tensor<4xf32>
  return %l : tensor<4xf32>
}

// -----

func.func private @e_4() -> tensor<4xf32> attributes {uop.kernel} {
  %b = uop.buffer 0 : tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func @main() -> tensor<2x2xf32> attributes {uop.host} {
  %b = uop.buffer 0 : tensor<4xf32>
  // expected-error @+1 {{'uop.launch' op result type 'tensor<2x2xf32>' does not match kernel 'e_4', which returns 'tensor<4xf32>'}}
  %l = uop.launch @e_4(%b) : (tensor<4xf32>) -> tensor<2x2xf32>
  return %l : tensor<2x2xf32>
}
