// RUN: uop-opt %s -split-input-file -uop-rangeify | FileCheck %s

// A gather is checked per axis (issue 32, class 2): uop.check_index for
// each axis whose bounds are not proven, and the gathered value comes after
// its checks. Through an expand the checked index is not used (every index
// reads element 0): the uop.after keeps the check, which went with the
// unused index before.
// CHECK-LABEL: func.func @gather_expand
// CHECK: %[[C:.*]] = uop.check_index %{{.*}}, 10
// CHECK: %[[V:.*]] = uop.load
// CHECK: uop.after %[[V]], %[[C]] : f32, i32
func.func @gather_expand() -> f32 {
  %0 = uop.buffer 1 : tensor<1xf32>
  %1 = uop.reshape %0, [1] : tensor<1xf32>
  %2 = uop.expand %1, [10] : tensor<1xf32>
  %3 = uop.buffer 0 : tensor<1xi32>
  %4 = uop.const 0 : i32
  %5 = uop.index %3[%4] : tensor<1xi32>
  %6 = uop.index %2[%5] : tensor<10xf32>
  return %6 : f32
}

// -----

// A stack of equal values: its where-chain folds to the value, and the
// check stays.
// CHECK-LABEL: func.func @gather_stack_same
// CHECK: %[[C:.*]] = uop.check_index %{{.*}}, 3
// CHECK: uop.after %{{.*}}, %[[C]] : f32, i32
func.func @gather_stack_same() -> f32 {
  %0 = uop.const 5.000000e+00 : f32
  %1 = uop.stack %0, %0, %0 : f32
  %2 = uop.buffer 0 : tensor<1xi32>
  %3 = uop.const 0 : i32
  %4 = uop.index %2[%3] : tensor<1xi32>
  %5 = uop.index %1[%4] : tensor<3xf32>
  return %5 : f32
}

// -----

// A proven index: no check, no after.
// CHECK-LABEL: func.func @gather_proven
// CHECK-NOT: uop.check_index
// CHECK-NOT: uop.after
// CHECK: return
func.func @gather_proven() -> f32 {
  %0 = uop.buffer 1 : tensor<4xf32>
  %1 = uop.const 2 : i32
  %2 = uop.index %0[%1] : tensor<4xf32>
  return %2 : f32
}
