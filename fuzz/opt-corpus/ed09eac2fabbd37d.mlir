0// Dense tensor constants fold elementwise; a stack of constants is one.
func.func @dense() -> (tensor<3xi32>, tensor<3xi32>, tensor<2xi32>, tensor<2xf32>) {
  %a = uop.const dense<[1, 2, 3]> : tensor<3xi32>
  %b = uop.const dense<[10, 20, 30]> : tensor<3xi32>
  %s = uop.const dense<7> : tensor<2xi32>
  %z = uop.const dense<[1, 0]> : tensor<2xi32>
  %c1 = uop.const 1.0 : f32
  %c2 = uop.const 2.0 : f32
  %0 = uop.mul %a, %b : tensor<3xi32>
  %1 = uop.add %0, %a : tensor<3xi32>
  %two = uop.const dense<2> : tensor<3xi32>
  %lt = uop.cmplt %a, %two : tensor<3xi32>
  %w = uop.where %lt, %a, %b : tensor<3xi32>
  %d = uop.floordiv %s, %z : tensor<2xi32>  // 7 // 0 in one element: not folded
  %st = uop.stack %c1, %c2 : f32
  return %1, %w, %d, %st : tensor<3xi32>, tensor<3xi32>, tensor<2xi32>, tensor<2xf32>
}
