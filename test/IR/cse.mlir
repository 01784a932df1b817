// RUN: uop-opt %s -cse | FileCheck %s
//
// The seed hash-conses UOps: building the same node twice gives the same
// object. In MLIR, CSE gives that sharing (test_w01 test_hash_consing), while
// 1, 1.0, true, 0.0 and -0.0 stay distinct constants.

// CHECK-LABEL: func.func @hash_consing
func.func @hash_consing() -> (i32, i32) {
  // CHECK: %[[ONE:.*]] = uop.const 1 : i32
  // CHECK-NEXT: %[[TWO:.*]] = uop.const 2 : i32
  // CHECK-NEXT: %[[SUM:.*]] = uop.add %[[ONE]], %[[TWO]] : i32
  // CHECK-NEXT: return %[[SUM]], %[[SUM]]
  %a1 = uop.const 1 : i32
  %a2 = uop.const 2 : i32
  %a = uop.add %a1, %a2 : i32
  %b1 = uop.const 1 : i32
  %b2 = uop.const 2 : i32
  %b = uop.add %b1, %b2 : i32
  return %a, %b : i32, i32
}

// CHECK-LABEL: func.func @distinct_constants
func.func @distinct_constants() -> (i32, f32, i1, f32, f32, f16) {
  // CHECK-DAG: uop.const 1 : i32
  // CHECK-DAG: uop.const 1.000000e+00 : f32
  // CHECK-DAG: uop.const true
  // CHECK-DAG: uop.const 0.000000e+00 : f32
  // CHECK-DAG: uop.const -0.000000e+00 : f32
  // CHECK-DAG: uop.const 1.000000e+00 : f16
  // CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32, f32, i1, f32, f32, f16
  %0 = uop.const 1 : i32
  %1 = uop.const 1.0 : f32
  %2 = uop.const true
  %3 = uop.const 0.0 : f32
  %4 = uop.const -0.0 : f32
  %5 = uop.const 1.0 : f16
  return %0, %1, %2, %3, %4, %5 : i32, f32, i1, f32, f32, f16
}

// Structurally equal calls merge; memory effects do not (two stores stay).
// CHECK-LABEL: func.func @calls_and_stores
func.func @calls_and_stores(%i: i32, %v: f32) -> (i32, i32, !uop.void, !uop.void) {
  // CHECK: %[[C:.*]] = uop.call "sq"
  // CHECK-NOT: uop.call
  %c7 = uop.const 7 : i32
  %0 = uop.call "sq"(%c7 : i32) {
  ^bb0(%x: i32):
    %1 = uop.mul %x, %x : i32
    uop.yield %1 : i32
  }
  %2 = uop.call "sq"(%c7 : i32) {
  ^bb0(%x: i32):
    %3 = uop.mul %x, %x : i32
    uop.yield %3 : i32
  }
  %b = uop.buffer 0 : memref<4xf32, #uop.addrspace<global>>
  %p = uop.index %b[%i] : memref<4xf32, #uop.addrspace<global>>
  // CHECK: uop.store
  // CHECK: uop.store
  %s0 = uop.store %p, %v : !uop.ptr<f32, global>
  %s1 = uop.store %p, %v : !uop.ptr<f32, global>
  // CHECK: return %[[C]], %[[C]]
  return %0, %2, %s0, %s1 : i32, i32, !uop.void, !uop.void
}
