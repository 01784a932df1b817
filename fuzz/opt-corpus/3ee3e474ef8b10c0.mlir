2//
// Running closed programs by rewriting (test_w01 test_run_stack_program,
// test_call_inlining_and_scoping, test_uir_evaluates): a closed program
// becomes one constant.

func.func @stack_program() -> (tensor<3xi32>, i32, tensor<3xi32>) {
  %c1 = uop.const 1 : i32
  %c2 = uop.const 2 : i32
  %c3 = uop.const 3 : i32
  %c10 = uop.const 10 : i32
  %c20 = uop.const 20 : i32
  %c30 = uop.const 30 : i32
  %a = uop.stack %c1, %c2, %c3 : i32
  %b = uop.stack %c10, %c20, %c30 : i32
  %ab = uop.mul %a, %b : tensor<3xi32>
  %0 = uop.add %ab, %a : tensor<3xi32>
  %s = uop.stack %a, %b : tensor<3xi32>
  %row = uop.index %s[%c1] : tensor<2x3xi32>
  %1 = uop.index %row[%c2] : tensor<3xi32>
  %twos = uop.stack %c2, %c2, %c2 : i32
  %lt = uop.cmplt %a, %twos : tensor<3xi32>
  %2 = uop.where %lt, %a, %b : tensor<3xi32>
  return %0, %1, %2 : tensor<3xi32>, i32, tensor<3xi32>
}
