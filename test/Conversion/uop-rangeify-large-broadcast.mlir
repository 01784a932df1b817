// RUN: uop-opt %s -uop-rangeify | FileCheck %s
//
// A broadcast that is never raveled may have more than INT32_MAX elements:
// A @ B at N = 65536 multiplies N x N x K views, but each load is indexed by
// its own ranges (each < 2^31), as in the seed. Only a flat index (a reshape,
// the stored result) must fit in i32 (uop-rangeify-errors.mlir).

// CHECK-LABEL: func.func @sum_of_broadcast
// CHECK: uop.range {{.*}} idx 0 <loop>
// CHECK: uop.range {{.*}} idx 1 <reduce>
// CHECK: uop.sink
func.func @sum_of_broadcast() -> tensor<65536xf32> {
  %b = uop.buffer 0 : tensor<65536xf32>
  %r = uop.reshape %b, [65536, 1] : tensor<65536xf32>
  %e = uop.expand %r, [65536, 65536] : tensor<65536x1xf32>
  %s = uop.reduce %e <add> pop 1 : tensor<65536x65536xf32>
  return %s : tensor<65536xf32>
}
