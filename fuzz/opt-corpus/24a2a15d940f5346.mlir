2// The seed's test_uir_evaluates, as MLIR.
func.func @movement_and_reduce() -> (tensor<3xf32>, tensor<2x2xi32>, tensor<2xi32>, f32) {
  %f1 = uop.const 1.0 : f32
  %f2 = uop.const 2.0 : f32
  %f3 = uop.const 3.0 : f32
  %0 = uop.stack %f1, %f2, %f3 : f32
  %1 = uop.stack %0, %0 : tensor<3xf32>
  %two = uop.const dense<2.0> : tensor<2x3xf32>
  %2 = uop.mul %1, %two : tensor<2x3xf32>
  %3 = uop.permute %2, [1, 0] : tensor<2x3xf32>
  %4 = uop.reduce %3 <add> pop 1 : tensor<3x2xf32>
  %i = uop.const dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %s = uop.shrink %i [0:2, 1:3] : tensor<2x3xi32>
  %r = uop.reshape %s, [4] : tensor<2x2xi32>
  %e = uop.reshape %r, [2, 2] : tensor<4xi32>
  %m = uop.reduce %e <max> pop 1 : tensor<2x2xi32>
  %col = uop.reshape %0, [3, 1] : tensor<3xf32>
  %x = uop.expand %col, [3, 2] : tensor<3x1xf32>
  %t = uop.reduce %x <add> pop 2 : tensor<3x2xf32>
  return %4, %e, %m, %t : tensor<3xf32>, tensor<2x2xi32>, tensor<2xi32>, f32
}
