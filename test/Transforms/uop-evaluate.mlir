// RUN: uop-opt %s -uop-evaluate -split-input-file | FileCheck %s
//
// Running closed programs by rewriting (test_w01 test_run_stack_program,
// test_call_inlining_and_scoping, test_uir_evaluates): a closed program
// becomes one constant.

// CHECK-LABEL: func.func @stack_program
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
  // CHECK-DAG: %[[A:.*]] = uop.const dense<[11, 42, 93]> : tensor<3xi32>
  // CHECK-DAG: %[[B:.*]] = uop.const 30 : i32
  // CHECK-DAG: %[[C:.*]] = uop.const dense<[1, 20, 30]> : tensor<3xi32>
  // CHECK: return %[[A]], %[[B]], %[[C]]
  return %0, %1, %2 : tensor<3xi32>, i32, tensor<3xi32>
}

// -----

// CHECK-LABEL: func.func @calls
func.func @calls() -> (i32, i32) {
  %c7 = uop.const 7 : i32
  %c3 = uop.const 3 : i32
  %0 = uop.call "sq"(%c7 : i32) {
  ^bb0(%p: i32):
    %m = uop.mul %p, %p : i32
    uop.yield %m : i32
  }
  // f(x) = sq(x + 1) + x: the inner parameter is its own scope
  %1 = uop.call "f"(%c3 : i32) {
  ^bb0(%p: i32):
    %one = uop.const 1 : i32
    %a = uop.add %p, %one : i32
    %s = uop.call "sq"(%a : i32) {
    ^bb0(%q: i32):
      %m = uop.mul %q, %q : i32
      uop.yield %m : i32
    }
    %r = uop.add %s, %p : i32
    uop.yield %r : i32
  }
  // CHECK-DAG: %[[A:.*]] = uop.const 49 : i32
  // CHECK-DAG: %[[B:.*]] = uop.const 19 : i32
  // CHECK-NOT: uop.call
  // CHECK: return %[[A]], %[[B]]
  return %0, %1 : i32, i32
}

// -----

// The seed's test_uir_evaluates, as MLIR.
// CHECK-LABEL: func.func @movement_and_reduce
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
  // CHECK-DAG: %[[A:.*]] = uop.const dense<[4.000000e+00, 8.000000e+00, 1.200000e+01]> : tensor<3xf32>
  // CHECK-DAG: %[[B:.*]] = uop.const dense<{{\[\[}}2, 3], [5, 6]]> : tensor<2x2xi32>
  // CHECK-DAG: %[[C:.*]] = uop.const dense<[3, 6]> : tensor<2xi32>
  // CHECK-DAG: %[[D:.*]] = uop.const 1.200000e+01 : f32
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]]
  return %4, %e, %m, %t : tensor<3xf32>, tensor<2x2xi32>, tensor<2xi32>, f32
}

// -----

// An open program: ALU ops are pushed through stacks, then simplified.
// CHECK-LABEL: func.func @push_through_stack
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32)
func.func @push_through_stack(%x: i32, %y: i32) -> tensor<2xi32> {
  %z = uop.const 0 : i32
  %one = uop.const 1 : i32
  %s = uop.stack %x, %y : i32
  %c = uop.const dense<[0, 1]> : tensor<2xi32>
  %0 = uop.add %s, %c : tensor<2xi32>
  // CHECK: %[[Y1:.*]] = uop.add %[[Y]], %{{.*}} : i32
  // CHECK: %[[S:.*]] = uop.stack %[[X]], %[[Y1]] : i32
  // CHECK: return %[[S]]
  return %0 : tensor<2xi32>
}

// -----

// Elements whose folding C leaves undefined stay for run time; the others
// fold. (A divisor that is 0 is an error at the op: uop-evaluate-errors.)
// CHECK-LABEL: func.func @partial
func.func @partial() -> tensor<2xi32> {
  %a = uop.const dense<[7, -2147483648]> : tensor<2xi32>
  %b = uop.const dense<[2, -1]> : tensor<2xi32>
  %0 = uop.floordiv %a, %b : tensor<2xi32>
  // CHECK-DAG: %[[Q:.*]] = uop.const 3 : i32
  // CHECK-DAG: %[[D:.*]] = uop.floordiv %{{.*}}, %{{.*}} : i32
  // CHECK: %[[S:.*]] = uop.stack %[[Q]], %[[D]] : i32
  // CHECK: return %[[S]]
  return %0 : tensor<2xi32>
}
