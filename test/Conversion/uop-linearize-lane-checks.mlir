// RUN: uop-opt %s -split-input-file -uop-linearize | FileCheck %s
// RUN: uop-opt %s -split-input-file -uop-linearize=checks=false | FileCheck %s --check-prefix=OFF --implicit-check-not=uop.checks --implicit-check-not=vector.reduction --implicit-check-not=atomic_rmw
//
// Run-time checks inside vector lanes (#uop.opts<vector = W>, issue 12):
// an unproven index that is a vector of lane indices (the gather T[I[j]]),
// or affine in the lanes (the vector store of a loop longer than its
// buffer), and a vector i32 divisor are checked in every lane: a vector
// compare, vector.reduction <or> into the branch to the failure record,
// which names the first failing lane (lane 0's value is selected last), and
// a select that makes each failing lane safe (index 0, divisor 1) before
// the access or the division. The proven loads of X (affine in the lanes
// and the reduce loop) carry none.

// CHECK-LABEL: func.func @lanes
// CHECK-SAME: %[[REC:[^:]*]]: memref<4xi32>)
// CHECK-SAME: uop.checks = [{kind = "index", {{.*}}}, {kind = "div-zero", {{.*}}}, {kind = "div-overflow", {{.*}}}]
// The gather: all 8 lanes of I[j] in [0, 4).
// CHECK: %[[IDX:.*]] = vector.load %{{.*}} : memref<16xi32>, vector<8xi32>
// CHECK: %[[BAD:.*]] = arith.cmpi uge, %[[IDX]], %{{.*}} : vector<8xi32>
// CHECK: %[[ANY:.*]] = vector.reduction <or>, %[[BAD]] : vector<8xi1> into i1
// CHECK: scf.if %[[ANY]] {
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[REC]]
// CHECK: %[[L7:.*]] = vector.extract %[[IDX]][7] : i32 from vector<8xi32>
// CHECK: %[[B6:.*]] = vector.extract %[[BAD]][6] : i1 from vector<8xi1>
// CHECK: %[[L6:.*]] = vector.extract %[[IDX]][6] : i32 from vector<8xi32>
// CHECK: arith.select %[[B6]], %[[L6]], %[[L7]] : i32
// CHECK: %[[B0:.*]] = vector.extract %[[BAD]][0] : i1 from vector<8xi1>
// CHECK: %[[L0:.*]] = vector.extract %[[IDX]][0] : i32 from vector<8xi32>
// CHECK: %[[FIRST:.*]] = arith.select %[[B0]], %[[L0]], %{{.*}} : i32
// CHECK: memref.store %[[FIRST]], %[[REC]]
// CHECK: %[[SAFE:.*]] = arith.select %[[BAD]], %{{.*}}, %[[IDX]] : vector<8xi1>, vector<8xi32>
// CHECK: arith.index_cast %[[SAFE]] : vector<8xi32> to vector<8xindex>
// CHECK-COUNT-8: memref.load %{{.*}} : memref<4xf32>
// The divisor: a zero lane, then INT_MIN / -1 in a lane.
// CHECK: %[[A:.*]] = vector.load %{{.*}} : memref<16xi32>, vector<8xi32>
// CHECK: %[[D:.*]] = vector.load %{{.*}} : memref<16xi32>, vector<8xi32>
// CHECK: %[[ZERO:.*]] = arith.cmpi eq, %[[D]], %{{.*}} : vector<8xi32>
// CHECK: vector.reduction <or>, %[[ZERO]] : vector<8xi1> into i1
// CHECK: %[[MIN:.*]] = arith.cmpi eq, %[[A]], %{{.*}} : vector<8xi32>
// CHECK: %[[M1:.*]] = arith.cmpi eq, %[[D]], %{{.*}} : vector<8xi32>
// CHECK: %[[OVF:.*]] = arith.andi %[[MIN]], %[[M1]] : vector<8xi1>
// CHECK: vector.reduction <or>, %[[OVF]] : vector<8xi1> into i1
// CHECK: %[[DBAD:.*]] = arith.ori %[[ZERO]], %[[OVF]] : vector<8xi1>
// CHECK: %[[ONE:.*]] = arith.constant dense<1> : vector<8xi32>
// CHECK: %[[SD:.*]] = arith.select %[[DBAD]], %[[ONE]], %[[D]] : vector<8xi1>, vector<8xi32>
// CHECK: arith.floordivsi %[[A]], %[[SD]] : vector<8xi32>
// CHECK: vector.load %{{.*}} : memref<64xf32>, vector<8xf32>
// CHECK: vector.store %{{.*}} : memref<16xf32>, vector<8xf32>
// OFF-LABEL: func.func @lanes(%{{.*}}: memref<64xf32>, %{{.*}}: memref<16xi32>, %{{.*}}: memref<4xf32>, %{{.*}}: memref<16xi32>, %{{.*}}: memref<16xi32>, %{{.*}}: memref<16xf32>)
// OFF: arith.floordivsi %{{.*}}, %{{.*}} : vector<8xi32>
func.func @lanes() -> !uop.void attributes {uop.opts = #uop.opts<vector = 8>} {
  %c16 = uop.const 16 : i32
  %c4 = uop.const 4 : i32
  %c0 = uop.const 0 : i32
  %zero = uop.const 0.0 : f32
  %out = uop.buffer 5 : memref<16xf32, #uop.addrspace<global>>
  %j = uop.range %c16 idx 0 <loop>
  %po = uop.index %out[%j] : memref<16xf32, #uop.addrspace<global>>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %acc_j = uop.after %acc, %j : memref<1xf32, #uop.addrspace<local>>, i32
  %p0 = uop.index %acc_j[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %zero : !uop.ptr<f32, local>
  %i = uop.range %c4 idx 1 <loop>
  %acc_i = uop.after %acc_j, %init, %i : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pi = uop.index %acc_i[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pi : !uop.ptr<f32, local>
  %X = uop.buffer 0 : memref<64xf32, #uop.addrspace<global>>
  %i16 = uop.mul %i, %c16 : i32
  %ij = uop.add %i16, %j : i32
  %px = uop.index %X[%ij] : memref<64xf32, #uop.addrspace<global>>
  %x = uop.load %px : !uop.ptr<f32, global>
  %sum = uop.add %old, %x : f32
  %upd = uop.store %pi, %sum : !uop.ptr<f32, local>
  %endi = uop.end %upd, %i : !uop.void
  %acc_end = uop.after %acc_j, %endi : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pe = uop.index %acc_end[%c0] : memref<1xf32, #uop.addrspace<local>>
  %s = uop.load %pe : !uop.ptr<f32, local>
  %T = uop.buffer 2 : memref<4xf32, #uop.addrspace<global>>
  %I = uop.buffer 1 : memref<16xi32, #uop.addrspace<global>>
  %pidx = uop.index %I[%j] : memref<16xi32, #uop.addrspace<global>>
  %idx = uop.load %pidx : !uop.ptr<i32, global>
  %pt = uop.index %T[%idx] : memref<4xf32, #uop.addrspace<global>>
  %t = uop.load %pt : !uop.ptr<f32, global>
  %st = uop.add %s, %t : f32
  %A = uop.buffer 3 : memref<16xi32, #uop.addrspace<global>>
  %pa = uop.index %A[%j] : memref<16xi32, #uop.addrspace<global>>
  %a = uop.load %pa : !uop.ptr<i32, global>
  %D = uop.buffer 4 : memref<16xi32, #uop.addrspace<global>>
  %pd = uop.index %D[%j] : memref<16xi32, #uop.addrspace<global>>
  %d = uop.load %pd : !uop.ptr<i32, global>
  %q = uop.floordiv %a, %d : i32
  %qf = uop.cast %q : i32 to f32
  %r = uop.add %st, %qf : f32
  %sto = uop.store %po, %r : !uop.ptr<f32, global>
  %endj = uop.end %sto, %j : !uop.void
  %k = uop.sink(%endj : !uop.void)
  return %k : !uop.void
}

// -----

// The loop runs to 16, the buffer has 12: the vector store is checked in
// every lane and, as 8 lanes from 0 fit in 12, stays one vector store, from
// 0 when a lane fails.
// CHECK-LABEL: func.func @short
// CHECK-SAME: uop.checks = [{kind = "index", {{.*}}}]
// CHECK: %[[BASE:.*]] = arith.muli %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK: %[[J:.*]] = arith.addi %{{.*}}, %{{.*}} overflow<nsw> : vector<8xi32>
// CHECK: %[[BAD:.*]] = arith.cmpi uge, %[[J]], %{{.*}} : vector<8xi32>
// CHECK: %[[ANY:.*]] = vector.reduction <or>, %[[BAD]] : vector<8xi1> into i1
// CHECK: scf.if %[[ANY]] {
// CHECK: %[[SAFE:.*]] = arith.select %[[ANY]], %{{.*}}, %[[BASE]] : i32
// CHECK: %[[AT:.*]] = arith.index_cast %[[SAFE]] : i32 to index
// CHECK: vector.store %{{.*}}, %{{.*}}[%[[AT]]] : memref<12xf32>, vector<8xf32>
// OFF-LABEL: func.func @short
// OFF: vector.store %{{.*}} : memref<12xf32>, vector<8xf32>
func.func @short() -> !uop.void attributes {uop.opts = #uop.opts<vector = 8>} {
  %c16 = uop.const 16 : i32
  %c4 = uop.const 4 : i32
  %c0 = uop.const 0 : i32
  %zero = uop.const 0.0 : f32
  %out = uop.buffer 1 : memref<12xf32, #uop.addrspace<global>>
  %j = uop.range %c16 idx 0 <loop>
  %po = uop.index %out[%j] : memref<12xf32, #uop.addrspace<global>>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %acc_j = uop.after %acc, %j : memref<1xf32, #uop.addrspace<local>>, i32
  %p0 = uop.index %acc_j[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %zero : !uop.ptr<f32, local>
  %i = uop.range %c4 idx 1 <loop>
  %acc_i = uop.after %acc_j, %init, %i : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pi = uop.index %acc_i[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pi : !uop.ptr<f32, local>
  %X = uop.buffer 0 : memref<64xf32, #uop.addrspace<global>>
  %i16 = uop.mul %i, %c16 : i32
  %ij = uop.add %i16, %j : i32
  %px = uop.index %X[%ij] : memref<64xf32, #uop.addrspace<global>>
  %x = uop.load %px : !uop.ptr<f32, global>
  %sum = uop.add %old, %x : f32
  %upd = uop.store %pi, %sum : !uop.ptr<f32, local>
  %endi = uop.end %upd, %i : !uop.void
  %acc_end = uop.after %acc_j, %endi : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pe = uop.index %acc_end[%c0] : memref<1xf32, #uop.addrspace<local>>
  %s = uop.load %pe : !uop.ptr<f32, local>
  %sto = uop.store %po, %s : !uop.ptr<f32, global>
  %endj = uop.end %sto, %j : !uop.void
  %k = uop.sink(%endj : !uop.void)
  return %k : !uop.void
}

// -----

// A buffer of 4, narrower than the 8 lanes: each failing lane stores to
// element 0 instead, lane by lane.
// CHECK-LABEL: func.func @tiny
// CHECK: %[[J:.*]] = arith.addi %{{.*}}, %{{.*}} overflow<nsw> : vector<8xi32>
// CHECK: %[[BAD:.*]] = arith.cmpi uge, %[[J]], %{{.*}} : vector<8xi32>
// CHECK: vector.reduction <or>, %[[BAD]] : vector<8xi1> into i1
// CHECK: %[[SAFE:.*]] = arith.select %[[BAD]], %{{.*}}, %[[J]] : vector<8xi1>, vector<8xi32>
// CHECK: %[[AT:.*]] = arith.index_cast %[[SAFE]] : vector<8xi32> to vector<8xindex>
// CHECK-COUNT-8: memref.store %{{.*}} : memref<4xf32>
func.func @tiny() -> !uop.void attributes {uop.opts = #uop.opts<vector = 8>} {
  %c16 = uop.const 16 : i32
  %c4 = uop.const 4 : i32
  %c0 = uop.const 0 : i32
  %zero = uop.const 0.0 : f32
  %out = uop.buffer 1 : memref<4xf32, #uop.addrspace<global>>
  %j = uop.range %c16 idx 0 <loop>
  %po = uop.index %out[%j] : memref<4xf32, #uop.addrspace<global>>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %acc_j = uop.after %acc, %j : memref<1xf32, #uop.addrspace<local>>, i32
  %p0 = uop.index %acc_j[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %zero : !uop.ptr<f32, local>
  %i = uop.range %c4 idx 1 <loop>
  %acc_i = uop.after %acc_j, %init, %i : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pi = uop.index %acc_i[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pi : !uop.ptr<f32, local>
  %X = uop.buffer 0 : memref<64xf32, #uop.addrspace<global>>
  %i16 = uop.mul %i, %c16 : i32
  %ij = uop.add %i16, %j : i32
  %px = uop.index %X[%ij] : memref<64xf32, #uop.addrspace<global>>
  %x = uop.load %px : !uop.ptr<f32, global>
  %sum = uop.add %old, %x : f32
  %upd = uop.store %pi, %sum : !uop.ptr<f32, local>
  %endi = uop.end %upd, %i : !uop.void
  %acc_end = uop.after %acc_j, %endi : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pe = uop.index %acc_end[%c0] : memref<1xf32, #uop.addrspace<local>>
  %s = uop.load %pe : !uop.ptr<f32, local>
  %sto = uop.store %po, %s : !uop.ptr<f32, global>
  %endj = uop.end %sto, %j : !uop.void
  %k = uop.sink(%endj : !uop.void)
  return %k : !uop.void
}

// -----

// In bounds for every value of j: proven, no check at all, the lanes'
// vector store as it was.
// CHECK-LABEL: func.func @fits
// CHECK-NOT: uop.checks
// CHECK-NOT: vector.reduction
// CHECK: vector.store %{{.*}} : memref<16xf32>, vector<8xf32>
// CHECK-NOT: vector.reduction
// CHECK: return
func.func @fits() -> !uop.void attributes {uop.opts = #uop.opts<vector = 8>} {
  %c16 = uop.const 16 : i32
  %c4 = uop.const 4 : i32
  %c0 = uop.const 0 : i32
  %zero = uop.const 0.0 : f32
  %out = uop.buffer 1 : memref<16xf32, #uop.addrspace<global>>
  %j = uop.range %c16 idx 0 <loop>
  %po = uop.index %out[%j] : memref<16xf32, #uop.addrspace<global>>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %acc_j = uop.after %acc, %j : memref<1xf32, #uop.addrspace<local>>, i32
  %p0 = uop.index %acc_j[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %zero : !uop.ptr<f32, local>
  %i = uop.range %c4 idx 1 <loop>
  %acc_i = uop.after %acc_j, %init, %i : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pi = uop.index %acc_i[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pi : !uop.ptr<f32, local>
  %X = uop.buffer 0 : memref<64xf32, #uop.addrspace<global>>
  %i16 = uop.mul %i, %c16 : i32
  %ij = uop.add %i16, %j : i32
  %px = uop.index %X[%ij] : memref<64xf32, #uop.addrspace<global>>
  %x = uop.load %px : !uop.ptr<f32, global>
  %sum = uop.add %old, %x : f32
  %upd = uop.store %pi, %sum : !uop.ptr<f32, local>
  %endi = uop.end %upd, %i : !uop.void
  %acc_end = uop.after %acc_j, %endi : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pe = uop.index %acc_end[%c0] : memref<1xf32, #uop.addrspace<local>>
  %s = uop.load %pe : !uop.ptr<f32, local>
  %sto = uop.store %po, %s : !uop.ptr<f32, global>
  %endj = uop.end %sto, %j : !uop.void
  %k = uop.sink(%endj : !uop.void)
  return %k : !uop.void
}
