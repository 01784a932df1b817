// RUN: uop-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(uop-lanes-to-loops))' | FileCheck %s

// A register tile's k step: the two rows' lane ops are one loop over the 8
// lanes; the scalar loads of A stay before it; the accumulators are flat
// float arrays, row r's lane l at r * 8 + l.
// CHECK-LABEL: func.func @tile
// CHECK-SAME: (%[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>,
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<16xf32>
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK: %[[A0:.*]] = memref.load %[[A]]
// CHECK: %[[A1:.*]] = memref.load %[[A]]
// CHECK: scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK:   %[[I0:.*]] = arith.index_cast %[[L]] : i32 to index
// CHECK:   %[[S0:.*]] = memref.load %[[ACC]][%[[I0]]]
// CHECK:   %[[J:.*]] = arith.addi %{{.*}}, %[[L]] overflow<nsw> : i32
// CHECK:   %[[BJ:.*]] = memref.load %[[B]][%{{.*}}]
// CHECK:   %[[P0:.*]] = arith.mulf %[[A0]], %[[BJ]] fastmath<contract> : f32
// CHECK:   %[[N0:.*]] = arith.addf %[[S0]], %[[P0]] fastmath<reassoc,contract> : f32
// CHECK:   memref.store %[[N0]], %[[ACC]][%{{.*}}]
// CHECK:   %[[L8:.*]] = arith.addi %[[L]], %c8_i32{{.*}} overflow<nsw> : i32
// CHECK:   %[[I1:.*]] = arith.index_cast %[[L8]] : i32 to index
// CHECK:   memref.load %[[ACC]][%[[I1]]]
// CHECK:   arith.mulf %[[A1]], %[[BJ]]
// CHECK:   memref.store %{{.*}}, %[[ACC]][%{{.*}}]
// CHECK-NOT: vector
func.func @tile(%a: memref<64xf32>, %b: memref<64xf32>, %c: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c8_i32 = arith.constant 8 : i32
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %acc = memref.alloca() : memref<2xvector<8xf32>>
  memref.store %zero, %acc[%c0] : memref<2xvector<8xf32>>
  memref.store %zero, %acc[%c1] : memref<2xvector<8xf32>>
  scf.for %k = %c0_i32 to %c8_i32 step %c1_i32 : i32 {
    %s0 = memref.load %acc[%c0] : memref<2xvector<8xf32>>
    %ka = arith.index_cast %k : i32 to index
    %a0 = memref.load %a[%ka] : memref<64xf32>
    %kb = arith.muli %k, %c8_i32 overflow<nsw> : i32
    %kbi = arith.index_cast %kb : i32 to index
    %bv = vector.load %b[%kbi] : memref<64xf32>, vector<8xf32>
    %a0v = vector.broadcast %a0 : f32 to vector<8xf32>
    %p0 = arith.mulf %a0v, %bv fastmath<contract> : vector<8xf32>
    %n0 = arith.addf %s0, %p0 fastmath<reassoc,contract> : vector<8xf32>
    memref.store %n0, %acc[%c0] : memref<2xvector<8xf32>>
    %s1 = memref.load %acc[%c1] : memref<2xvector<8xf32>>
    %ka1 = arith.addi %k, %c8_i32 : i32
    %ka1i = arith.index_cast %ka1 : i32 to index
    %a1 = memref.load %a[%ka1i] : memref<64xf32>
    %a1v = vector.broadcast %a1 : f32 to vector<8xf32>
    %p1 = arith.mulf %a1v, %bv fastmath<contract> : vector<8xf32>
    %n1 = arith.addf %s1, %p1 fastmath<reassoc,contract> : vector<8xf32>
    memref.store %n1, %acc[%c1] : memref<2xvector<8xf32>>
  }
  %r0 = memref.load %acc[%c0] : memref<2xvector<8xf32>>
  vector.store %r0, %c[%c0] : memref<16xf32>, vector<8xf32>
  %r1 = memref.load %acc[%c1] : memref<2xvector<8xf32>>
  %c8 = arith.constant 8 : index
  vector.store %r1, %c[%c8] : memref<16xf32>, vector<8xf32>
  return
}

// -----

// Across lanes: a reduction is a loop over the value's array in lane order
// (from lane 0, LLVM's ordered reduction), an extract a load of one lane,
// the lane offsets [0, 1, ..., 7] the lane itself.
// CHECK-LABEL: func.func @across
// CHECK: %[[ARR:.*]] = memref.alloca() : memref<8xi1>
// CHECK: scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step
// CHECK:   %[[X:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<8xi32>
// CHECK:   %[[C:.*]] = arith.cmpi sge, %[[X]], %[[L]] : i32
// CHECK:   memref.store %[[C]], %[[ARR]]
// CHECK: %[[FIRST:.*]] = memref.load %[[ARR]][%c0{{.*}}]
// CHECK: %[[ANY:.*]] = scf.for %{{.*}} = %c1_i32{{.*}} to %c8_i32{{.*}} step %c1_i32{{.*}} iter_args(%[[R:.*]] = %[[FIRST]]) -> (i1) : i32 {
// CHECK:   %[[Y:.*]] = memref.load %[[ARR]]
// CHECK:   %[[O:.*]] = arith.ori %[[R]], %[[Y]] : i1
// CHECK:   scf.yield %[[O]] : i1
// CHECK: memref.load %[[ARR]][%c3] : memref<8xi1>
func.func @across(%x: memref<8xi32>) -> (i1, i1) {
  %c0 = arith.constant 0 : index
  %iota = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>
  %v = vector.load %x[%c0] : memref<8xi32>, vector<8xi32>
  %c = arith.cmpi sge, %v, %iota : vector<8xi32>
  %any = vector.reduction <or>, %c : vector<8xi1> into i1
  %e = vector.extract %c[3] : i1 from vector<8xi1>
  return %any, %e : i1, i1
}

// -----

// A vector from scalars is an array of them; a gather loads each lane where
// its mask says, else takes the pass-through lane.
// CHECK-LABEL: func.func @gather
// CHECK: %[[ARR:.*]] = memref.alloca() : memref<4xindex>
// CHECK-COUNT-4: memref.store %{{.*}}, %[[ARR]]
// CHECK: scf.for
// CHECK:   %[[M:.*]] = memref.load %{{.*}} : memref<4xi1>
// CHECK:   %[[IDX:.*]] = memref.load %[[ARR]]
// CHECK:   scf.if %[[M]] -> (f32) {
// CHECK:     memref.load %{{.*}}[%{{.*}}] : memref<100xf32>
func.func @gather(%t: memref<100xf32>, %out: memref<4xf32>, %i0: index, %i1: index, %i2: index,
                  %i3: index, %m: memref<4xi1>) {
  %c0 = arith.constant 0 : index
  %idx = vector.from_elements %i0, %i1, %i2, %i3 : vector<4xindex>
  %mask = vector.load %m[%c0] : memref<4xi1>, vector<4xi1>
  %pass = arith.constant dense<0.0> : vector<4xf32>
  %g = vector.gather %t[%c0][%idx], %mask, %pass : memref<100xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.store %g, %out[%c0] : memref<4xf32>, vector<4xf32>
  return
}
