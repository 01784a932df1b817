// RUN: uop-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(uop-vectorize-max{lanes=8}))" | FileCheck %s
// RUN: not uop-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(uop-vectorize-max{lanes=1}))" 2>&1 | FileCheck %s --check-prefix=BAD
//
// uop-vectorize-max: a loop of max accumulations (two rows, as an upcast of
// 2 makes them) becomes 8 lanes each, a NaN flag per row, the lanes folded
// in order with the same compare-and-select; the scalar loop runs instead
// when a NaN was seen or a maximum is zero.
// BAD: uop-vectorize-max: lanes must be 0 or in [2, 64], got 1

// CHECK-LABEL: func.func @rows
// CHECK:         %[[A0:.*]] = memref.load %[[ACC0:.*]][%{{.*}}] : memref<1xf32>
// CHECK:         %[[A1:.*]] = memref.load %[[ACC1:.*]][%{{.*}}] : memref<1xf32>
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant dense<0xFF800000> : vector<8xf32>
// CHECK-DAG:     %[[FALSE:.*]] = arith.constant dense<false> : vector<8xi1>
// CHECK:         %[[V:.*]]:4 = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c8_i32 iter_args(%[[M0:.*]] = %[[NEGINF]], %[[M1:.*]] = %[[NEGINF]], %[[N0:.*]] = %[[FALSE]], %[[N1:.*]] = %[[FALSE]])
// CHECK:           %[[X0:.*]] = vector.load %{{.*}} : memref<512xf32>, vector<8xf32>
// CHECK:           %[[C0:.*]] = arith.cmpf ogt, %[[M0]], %[[X0]] : vector<8xf32>
// CHECK:           arith.select %[[C0]], %[[M0]], %[[X0]] : vector<8xi1>, vector<8xf32>
// CHECK:           arith.cmpf uno, %[[X0]], %[[X0]] : vector<8xf32>
// CHECK:           vector.load %{{.*}} : memref<512xf32>, vector<8xf32>
// CHECK:           scf.yield
// CHECK:         vector.extract %[[V]]#0[7] : f32 from vector<8xf32>
// CHECK:         vector.reduction <or>, %[[V]]#2 : vector<8xi1> into i1
// CHECK:         arith.cmpf oeq, %{{.*}}, %{{.*}} : f32
// CHECK:         scf.if %{{.*}} {
// CHECK:           scf.for %{{.*}} step %c1_i32
// CHECK:             arith.cmpf ogt
// CHECK:         } else {
// CHECK:           memref.store %{{.*}}, %[[ACC0]]
// CHECK:           memref.store %{{.*}}, %[[ACC1]]
// CHECK:         }
func.func @rows(%buf: memref<512xf32>, %base: i32) {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c256_i32 = arith.constant 256 : i32
  %acc0 = memref.alloca() : memref<1xf32>
  %acc1 = memref.alloca() : memref<1xf32>
  scf.for %i = %c0_i32 to %c256_i32 step %c1_i32 : i32 {
    %a = memref.load %acc0[%c0] : memref<1xf32>
    %k = arith.addi %base, %i : i32
    %ki = arith.index_cast %k : i32 to index
    %x = memref.load %buf[%ki] : memref<512xf32>
    %c = arith.cmpf ogt, %a, %x : f32
    %m = arith.select %c, %a, %x : f32
    memref.store %m, %acc0[%c0] : memref<1xf32>
    %b = memref.load %acc1[%c0] : memref<1xf32>
    %k2 = arith.addi %k, %c256_i32 : i32
    %k2i = arith.index_cast %k2 : i32 to index
    %y = memref.load %buf[%k2i] : memref<512xf32>
    %d = arith.cmpf ogt, %b, %y : f32
    %n = arith.select %d, %b, %y : f32
    memref.store %n, %acc1[%c0] : memref<1xf32>
  }
  return
}

// -----

// Not a max accumulation only (a sum in the same loop), a strided load, or
// too few iterations: left alone.
// CHECK-LABEL: func.func @mixed
// CHECK-NOT:     vector.load
// CHECK:         return
func.func @mixed(%buf: memref<512xf32>) {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c256_i32 = arith.constant 256 : i32
  %acc0 = memref.alloca() : memref<1xf32>
  %acc1 = memref.alloca() : memref<1xf32>
  scf.for %i = %c0_i32 to %c256_i32 step %c1_i32 : i32 {
    %a = memref.load %acc0[%c0] : memref<1xf32>
    %ki = arith.index_cast %i : i32 to index
    %x = memref.load %buf[%ki] : memref<512xf32>
    %c = arith.cmpf ogt, %a, %x : f32
    %m = arith.select %c, %a, %x : f32
    memref.store %m, %acc0[%c0] : memref<1xf32>
    %b = memref.load %acc1[%c0] : memref<1xf32>
    %s = arith.addf %b, %x : f32
    memref.store %s, %acc1[%c0] : memref<1xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @strided
// CHECK-NOT:     vector.load
// CHECK:         return
func.func @strided(%buf: memref<512xf32>) {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c256_i32 = arith.constant 256 : i32
  %acc0 = memref.alloca() : memref<1xf32>
  scf.for %i = %c0_i32 to %c256_i32 step %c1_i32 : i32 {
    %a = memref.load %acc0[%c0] : memref<1xf32>
    %k = arith.muli %i, %c2_i32 : i32
    %ki = arith.index_cast %k : i32 to index
    %x = memref.load %buf[%ki] : memref<512xf32>
    %c = arith.cmpf ogt, %a, %x : f32
    %m = arith.select %c, %a, %x : f32
    memref.store %m, %acc0[%c0] : memref<1xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @short
// CHECK-NOT:     vector.load
// CHECK:         return
func.func @short(%buf: memref<512xf32>) {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c12_i32 = arith.constant 12 : i32
  %acc0 = memref.alloca() : memref<1xf32>
  scf.for %i = %c0_i32 to %c12_i32 step %c1_i32 : i32 {
    %a = memref.load %acc0[%c0] : memref<1xf32>
    %ki = arith.index_cast %i : i32 to index
    %x = memref.load %buf[%ki] : memref<512xf32>
    %c = arith.cmpf ogt, %a, %x : f32
    %m = arith.select %c, %a, %x : f32
    memref.store %m, %acc0[%c0] : memref<1xf32>
  }
  return
}
