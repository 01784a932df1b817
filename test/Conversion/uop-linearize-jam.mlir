// RUN: uop-opt %s -split-input-file -uop-linearize | FileCheck %s
//
// #uop.opts<vector = W>: a serial loop directly around a reduction that
// reads memory with stride 1 in the outer loop and another stride in the
// inner one (gemm's j loop over B[k*N + j]) becomes W vector lanes: the loop
// counts groups of W, each lane's accumulator is a lane of a vector in a
// lane-private alloca, the contiguous load is a vector.load, the
// lane-invariant load of A stays scalar and is broadcast, the FMA is on
// vector<W x f32>, the result a vector.store; the inner loop asks LLVM not
// to vectorize it (that would reorder each lane's sum).

// CHECK-LABEL: func.func @gemm
// CHECK: memref.alloca() : memref<1xvector<16xf32>>
// CHECK-NOT: memref.alloca
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32
// CHECK: %[[C4:.*]] = arith.constant 4 : i32
// CHECK: scf.for %[[JJ:.*]] = %{{.*}} to %[[C4]] step %{{.*}} : i32
// CHECK: %[[BASE:.*]] = arith.muli %[[JJ]], %{{.*}} overflow<nsw> : i32
// CHECK: arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xi32>
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<1xvector<16xf32>>
// CHECK: scf.for %[[K:.*]] =
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<1xvector<16xf32>>
// CHECK: %[[A:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<4096xf32>
// CHECK: %[[B:.*]] = vector.load %{{.*}}[%{{.*}}] : memref<4096xf32>, vector<16xf32>
// CHECK: %[[AV:.*]] = vector.broadcast %[[A]] : f32 to vector<16xf32>
// CHECK: arith.mulf %[[AV]], %[[B]] fastmath<contract> : vector<16xf32>
// CHECK: arith.addf {{.*}} fastmath<reassoc,contract> : vector<16xf32>
// CHECK: } {llvm.loop_annotation = #{{.*}}}
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4096xf32>, vector<16xf32>
func.func @gemm() -> !uop.void attributes {uop.opts = #uop.opts<vector = 16>} {
  %c64 = uop.const 64 : i32
  %c0 = uop.const 0 : i32
  %zero = uop.const 0.0 : f32
  %C = uop.buffer 2 : memref<4096xf32, #uop.addrspace<global>>
  %A = uop.buffer 0 : memref<4096xf32, #uop.addrspace<global>>
  %B = uop.buffer 1 : memref<4096xf32, #uop.addrspace<global>>
  %i = uop.range %c64 idx 0 <loop>
  %j = uop.range %c64 idx 1 <loop>
  %k = uop.range %c64 idx 2 <loop>
  %iK = uop.mul %i, %c64 : i32
  %ij = uop.add %iK, %j : i32
  %pc = uop.index %C[%ij] : memref<4096xf32, #uop.addrspace<global>>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %acc_ij = uop.after %acc, %i, %j : memref<1xf32, #uop.addrspace<local>>, i32, i32
  %p0 = uop.index %acc_ij[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %zero : !uop.ptr<f32, local>
  %acc_k = uop.after %acc_ij, %init, %k : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pk = uop.index %acc_k[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pk : !uop.ptr<f32, local>
  %ik = uop.add %iK, %k : i32
  %pa = uop.index %A[%ik] : memref<4096xf32, #uop.addrspace<global>>
  %a = uop.load %pa : !uop.ptr<f32, global>
  %kM = uop.mul %k, %c64 : i32
  %kj = uop.add %kM, %j : i32
  %pb = uop.index %B[%kj] : memref<4096xf32, #uop.addrspace<global>>
  %b = uop.load %pb : !uop.ptr<f32, global>
  %ab = uop.mul %a, %b : f32
  %sum = uop.add %old, %ab : f32
  %upd = uop.store %pk, %sum : !uop.ptr<f32, local>
  %endk = uop.end %upd, %k : !uop.void
  %acc_done = uop.after %acc_ij, %endk : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pd = uop.index %acc_done[%c0] : memref<1xf32, #uop.addrspace<local>>
  %res = uop.load %pd : !uop.ptr<f32, local>
  %st = uop.store %pc, %res : !uop.ptr<f32, global>
  %endij = uop.end %st, %i, %j : !uop.void
  %sink = uop.sink(%endij : !uop.void)
  return %sink : !uop.void
}

// -----

// No opts, no lanes: how wide (and whether) is the opts' choice, not the
// lowering's.
// CHECK-LABEL: func.func @no_opts
// CHECK-NOT: vector<
// CHECK-NOT: llvm.loop_annotation
// CHECK: return
func.func @no_opts() -> !uop.void {
  %c64 = uop.const 64 : i32
  %c0 = uop.const 0 : i32
  %zero = uop.const 0.0 : f32
  %C = uop.buffer 2 : memref<4096xf32, #uop.addrspace<global>>
  %A = uop.buffer 0 : memref<4096xf32, #uop.addrspace<global>>
  %B = uop.buffer 1 : memref<4096xf32, #uop.addrspace<global>>
  %i = uop.range %c64 idx 0 <loop>
  %j = uop.range %c64 idx 1 <loop>
  %k = uop.range %c64 idx 2 <loop>
  %iK = uop.mul %i, %c64 : i32
  %ij = uop.add %iK, %j : i32
  %pc = uop.index %C[%ij] : memref<4096xf32, #uop.addrspace<global>>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %acc_ij = uop.after %acc, %i, %j : memref<1xf32, #uop.addrspace<local>>, i32, i32
  %p0 = uop.index %acc_ij[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %zero : !uop.ptr<f32, local>
  %acc_k = uop.after %acc_ij, %init, %k : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pk = uop.index %acc_k[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pk : !uop.ptr<f32, local>
  %ik = uop.add %iK, %k : i32
  %pa = uop.index %A[%ik] : memref<4096xf32, #uop.addrspace<global>>
  %a = uop.load %pa : !uop.ptr<f32, global>
  %kM = uop.mul %k, %c64 : i32
  %kj = uop.add %kM, %j : i32
  %pb = uop.index %B[%kj] : memref<4096xf32, #uop.addrspace<global>>
  %b = uop.load %pb : !uop.ptr<f32, global>
  %ab = uop.mul %a, %b : f32
  %sum = uop.add %old, %ab : f32
  %upd = uop.store %pk, %sum : !uop.ptr<f32, local>
  %endk = uop.end %upd, %k : !uop.void
  %acc_done = uop.after %acc_ij, %endk : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pd = uop.index %acc_done[%c0] : memref<1xf32, #uop.addrspace<local>>
  %res = uop.load %pd : !uop.ptr<f32, local>
  %st = uop.store %pc, %res : !uop.ptr<f32, global>
  %endij = uop.end %st, %i, %j : !uop.void
  %sink = uop.sink(%endij : !uop.void)
  return %sink : !uop.void
}

// -----

// Lanes whose count does not divide the trip count: none.
// CHECK-LABEL: func.func @no_divide
// CHECK-NOT: vector<
// CHECK: return
func.func @no_divide() -> !uop.void attributes {uop.opts = #uop.opts<vector = 24>} {
  %c64 = uop.const 64 : i32
  %c0 = uop.const 0 : i32
  %zero = uop.const 0.0 : f32
  %C = uop.buffer 2 : memref<4096xf32, #uop.addrspace<global>>
  %A = uop.buffer 0 : memref<4096xf32, #uop.addrspace<global>>
  %B = uop.buffer 1 : memref<4096xf32, #uop.addrspace<global>>
  %i = uop.range %c64 idx 0 <loop>
  %j = uop.range %c64 idx 1 <loop>
  %k = uop.range %c64 idx 2 <loop>
  %iK = uop.mul %i, %c64 : i32
  %ij = uop.add %iK, %j : i32
  %pc = uop.index %C[%ij] : memref<4096xf32, #uop.addrspace<global>>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %acc_ij = uop.after %acc, %i, %j : memref<1xf32, #uop.addrspace<local>>, i32, i32
  %p0 = uop.index %acc_ij[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %zero : !uop.ptr<f32, local>
  %acc_k = uop.after %acc_ij, %init, %k : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pk = uop.index %acc_k[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pk : !uop.ptr<f32, local>
  %ik = uop.add %iK, %k : i32
  %pa = uop.index %A[%ik] : memref<4096xf32, #uop.addrspace<global>>
  %a = uop.load %pa : !uop.ptr<f32, global>
  %kM = uop.mul %k, %c64 : i32
  %kj = uop.add %kM, %j : i32
  %pb = uop.index %B[%kj] : memref<4096xf32, #uop.addrspace<global>>
  %b = uop.load %pb : !uop.ptr<f32, global>
  %ab = uop.mul %a, %b : f32
  %sum = uop.add %old, %ab : f32
  %upd = uop.store %pk, %sum : !uop.ptr<f32, local>
  %endk = uop.end %upd, %k : !uop.void
  %acc_done = uop.after %acc_ij, %endk : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pd = uop.index %acc_done[%c0] : memref<1xf32, #uop.addrspace<local>>
  %res = uop.load %pd : !uop.ptr<f32, local>
  %st = uop.store %pc, %res : !uop.ptr<f32, global>
  %endij = uop.end %st, %i, %j : !uop.void
  %sink = uop.sink(%endij : !uop.void)
  return %sink : !uop.void
}

// -----

// Not when the loop stores into a buffer it also reads (a later iteration
// could read what an earlier one wrote).
// CHECK-LABEL: func.func @in_place
// CHECK-COUNT-1: memref.alloca() : memref<1xf32>
// CHECK-NOT: memref.alloca
// CHECK-NOT: llvm.loop_annotation
// CHECK: return
func.func @in_place() -> !uop.void attributes {uop.opts = #uop.opts<vector = 16>} {
  %c64 = uop.const 64 : i32
  %c0 = uop.const 0 : i32
  %zero = uop.const 0.0 : f32
  %B = uop.buffer 0 : memref<4096xf32, #uop.addrspace<global>>
  %j = uop.range %c64 idx 1 <loop>
  %k = uop.range %c64 idx 2 <loop>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %acc_j = uop.after %acc, %j : memref<1xf32, #uop.addrspace<local>>, i32
  %p0 = uop.index %acc_j[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %zero : !uop.ptr<f32, local>
  %acc_k = uop.after %acc_j, %init, %k : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pk = uop.index %acc_k[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pk : !uop.ptr<f32, local>
  %kM = uop.mul %k, %c64 : i32
  %kj = uop.add %kM, %j : i32
  %pb = uop.index %B[%kj] : memref<4096xf32, #uop.addrspace<global>>
  %b = uop.load %pb : !uop.ptr<f32, global>
  %sum = uop.add %old, %b : f32
  %upd = uop.store %pk, %sum : !uop.ptr<f32, local>
  %endk = uop.end %upd, %k : !uop.void
  %done = uop.after %acc_j, %endk : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pd = uop.index %done[%c0] : memref<1xf32, #uop.addrspace<local>>
  %res = uop.load %pd : !uop.ptr<f32, local>
  %po = uop.index %B[%j] : memref<4096xf32, #uop.addrspace<global>>
  %st = uop.store %po, %res : !uop.ptr<f32, global>
  %endj = uop.end %st, %j : !uop.void
  %sink = uop.sink(%endj : !uop.void)
  return %sink : !uop.void
}

// -----

// A per-thread alloc shared by the lanes (a loop program's score block) may
// take the lanes' stores when the loop reads nothing of it back: each lane
// stores its own element, a vector.store into the alloca.
// CHECK-LABEL: func.func @shared_alloc
// CHECK: memref.alloca() : memref<1xvector<16xf32>>
// CHECK: arith.addf {{.*}} fastmath<reassoc,contract> : vector<16xf32>
// CHECK: } {llvm.loop_annotation = #{{.*}}}
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4096xf32>, vector<16xf32>
func.func @shared_alloc() -> !uop.void attributes {uop.opts = #uop.opts<vector = 16>} {
  %c64 = uop.const 64 : i32
  %c4096 = uop.const 4096 : i32
  %c0 = uop.const 0 : i32
  %zero = uop.const 0.0 : f32
  %C = uop.buffer 2 : memref<4096xf32, #uop.addrspace<global>>
  %A = uop.buffer 0 : memref<4096xf32, #uop.addrspace<global>>
  %B = uop.buffer 1 : memref<4096xf32, #uop.addrspace<global>>
  %S = uop.alloc 1 : memref<4096xf32, #uop.addrspace<local>>
  %i = uop.range %c64 idx 0 <loop>
  %j = uop.range %c64 idx 1 <loop>
  %k = uop.range %c64 idx 2 <loop>
  %iK = uop.mul %i, %c64 : i32
  %ij = uop.add %iK, %j : i32
  %ps = uop.index %S[%ij] : memref<4096xf32, #uop.addrspace<local>>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %acc_ij = uop.after %acc, %i, %j : memref<1xf32, #uop.addrspace<local>>, i32, i32
  %p0 = uop.index %acc_ij[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %zero : !uop.ptr<f32, local>
  %acc_k = uop.after %acc_ij, %init, %k : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pk = uop.index %acc_k[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pk : !uop.ptr<f32, local>
  %ik = uop.add %iK, %k : i32
  %pa = uop.index %A[%ik] : memref<4096xf32, #uop.addrspace<global>>
  %a = uop.load %pa : !uop.ptr<f32, global>
  %kM = uop.mul %k, %c64 : i32
  %kj = uop.add %kM, %j : i32
  %pb = uop.index %B[%kj] : memref<4096xf32, #uop.addrspace<global>>
  %b = uop.load %pb : !uop.ptr<f32, global>
  %ab = uop.mul %a, %b : f32
  %sum = uop.add %old, %ab : f32
  %upd = uop.store %pk, %sum : !uop.ptr<f32, local>
  %endk = uop.end %upd, %k : !uop.void
  %acc_done = uop.after %acc_ij, %endk : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pd = uop.index %acc_done[%c0] : memref<1xf32, #uop.addrspace<local>>
  %res = uop.load %pd : !uop.ptr<f32, local>
  %st = uop.store %ps, %res : !uop.ptr<f32, local>
  %endij = uop.end %st, %i, %j : !uop.void
  %t = uop.range %c4096 idx 3 <loop>
  %S_done = uop.after %S, %endij : memref<4096xf32, #uop.addrspace<local>>, !uop.void
  %pst = uop.index %S_done[%t] : memref<4096xf32, #uop.addrspace<local>>
  %v = uop.load %pst : !uop.ptr<f32, local>
  %pc = uop.index %C[%t] : memref<4096xf32, #uop.addrspace<global>>
  %stc = uop.store %pc, %v : !uop.ptr<f32, global>
  %endt = uop.end %stc, %t : !uop.void
  %sink = uop.sink(%endt : !uop.void)
  return %sink : !uop.void
}

// -----

// The same alloc read back in the loop at the element the lane stores (an
// accumulator row rescaled in place, as online attention's o): still each
// lane's own element, so the lanes apply; the read is a vector.load. (An
// alloc used only inside the lanes would be private to them, one vector an
// element: the copy-out loop keeps it shared.)
// CHECK-LABEL: func.func @shared_alloc_in_place
// CHECK: memref.alloca() : memref<1xvector<16xf32>>
// CHECK: vector.load %{{.*}}[%{{.*}}] : memref<4096xf32>, vector<16xf32>
// CHECK: } {llvm.loop_annotation = #{{.*}}}
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4096xf32>, vector<16xf32>
func.func @shared_alloc_in_place() -> !uop.void attributes {uop.opts = #uop.opts<vector = 16>} {
  %c64 = uop.const 64 : i32
  %c4096 = uop.const 4096 : i32
  %c0 = uop.const 0 : i32
  %half = uop.const 0.5 : f32
  %C = uop.buffer 2 : memref<4096xf32, #uop.addrspace<global>>
  %B = uop.buffer 1 : memref<4096xf32, #uop.addrspace<global>>
  %O = uop.alloc 1 : memref<4096xf32, #uop.addrspace<local>>
  %i = uop.range %c64 idx 0 <loop>
  %j = uop.range %c64 idx 1 <loop>
  %k = uop.range %c64 idx 2 <loop>
  %iK = uop.mul %i, %c64 : i32
  %ij = uop.add %iK, %j : i32
  %po = uop.index %O[%ij] : memref<4096xf32, #uop.addrspace<local>>
  %o = uop.load %po : !uop.ptr<f32, local>
  %oh = uop.mul %o, %half : f32
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %acc_ij = uop.after %acc, %i, %j : memref<1xf32, #uop.addrspace<local>>, i32, i32
  %p0 = uop.index %acc_ij[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %oh : !uop.ptr<f32, local>
  %acc_k = uop.after %acc_ij, %init, %k : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pk = uop.index %acc_k[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pk : !uop.ptr<f32, local>
  %kM = uop.mul %k, %c64 : i32
  %kj = uop.add %kM, %j : i32
  %pb = uop.index %B[%kj] : memref<4096xf32, #uop.addrspace<global>>
  %b = uop.load %pb : !uop.ptr<f32, global>
  %sum = uop.add %old, %b : f32
  %upd = uop.store %pk, %sum : !uop.ptr<f32, local>
  %endk = uop.end %upd, %k : !uop.void
  %acc_done = uop.after %acc_ij, %endk : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pd = uop.index %acc_done[%c0] : memref<1xf32, #uop.addrspace<local>>
  %res = uop.load %pd : !uop.ptr<f32, local>
  %st = uop.store %po, %res : !uop.ptr<f32, local>
  %endij = uop.end %st, %i, %j : !uop.void
  %t = uop.range %c4096 idx 3 <loop>
  %O_done = uop.after %O, %endij : memref<4096xf32, #uop.addrspace<local>>, !uop.void
  %pot = uop.index %O_done[%t] : memref<4096xf32, #uop.addrspace<local>>
  %v = uop.load %pot : !uop.ptr<f32, local>
  %pc = uop.index %C[%t] : memref<4096xf32, #uop.addrspace<global>>
  %stc = uop.store %pc, %v : !uop.ptr<f32, global>
  %endt = uop.end %stc, %t : !uop.void
  %sink = uop.sink(%endt : !uop.void)
  return %sink : !uop.void
}

// -----

// Not when the loop reads the shared alloc at another element than it
// stores (lane l would read what lane l+1 of the same vector stores).
// CHECK-LABEL: func.func @shared_alloc_neighbour
// CHECK-NOT: vector<
// CHECK-NOT: llvm.loop_annotation
// CHECK: return
func.func @shared_alloc_neighbour() -> !uop.void attributes {uop.opts = #uop.opts<vector = 16>} {
  %c64 = uop.const 64 : i32
  %c4096 = uop.const 4096 : i32
  %c0 = uop.const 0 : i32
  %c1 = uop.const 1 : i32
  %C = uop.buffer 2 : memref<4096xf32, #uop.addrspace<global>>
  %B = uop.buffer 1 : memref<4096xf32, #uop.addrspace<global>>
  %O = uop.alloc 1 : memref<4160xf32, #uop.addrspace<local>>
  %i = uop.range %c64 idx 0 <loop>
  %j = uop.range %c64 idx 1 <loop>
  %k = uop.range %c64 idx 2 <loop>
  %iK = uop.mul %i, %c64 : i32
  %ij = uop.add %iK, %j : i32
  %ij1 = uop.add %ij, %c1 : i32
  %po = uop.index %O[%ij] : memref<4160xf32, #uop.addrspace<local>>
  %pn = uop.index %O[%ij1] : memref<4160xf32, #uop.addrspace<local>>
  %n = uop.load %pn : !uop.ptr<f32, local>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %acc_ij = uop.after %acc, %i, %j : memref<1xf32, #uop.addrspace<local>>, i32, i32
  %p0 = uop.index %acc_ij[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %n : !uop.ptr<f32, local>
  %acc_k = uop.after %acc_ij, %init, %k : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pk = uop.index %acc_k[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pk : !uop.ptr<f32, local>
  %kM = uop.mul %k, %c64 : i32
  %kj = uop.add %kM, %j : i32
  %pb = uop.index %B[%kj] : memref<4096xf32, #uop.addrspace<global>>
  %b = uop.load %pb : !uop.ptr<f32, global>
  %sum = uop.add %old, %b : f32
  %upd = uop.store %pk, %sum : !uop.ptr<f32, local>
  %endk = uop.end %upd, %k : !uop.void
  %acc_done = uop.after %acc_ij, %endk : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pd = uop.index %acc_done[%c0] : memref<1xf32, #uop.addrspace<local>>
  %res = uop.load %pd : !uop.ptr<f32, local>
  %st = uop.store %po, %res : !uop.ptr<f32, local>
  %endij = uop.end %st, %i, %j : !uop.void
  %t = uop.range %c4096 idx 3 <loop>
  %O_done = uop.after %O, %endij : memref<4160xf32, #uop.addrspace<local>>, !uop.void
  %pot = uop.index %O_done[%t] : memref<4160xf32, #uop.addrspace<local>>
  %v = uop.load %pot : !uop.ptr<f32, local>
  %pc = uop.index %C[%t] : memref<4096xf32, #uop.addrspace<global>>
  %stc = uop.store %pc, %v : !uop.ptr<f32, global>
  %endt = uop.end %stc, %t : !uop.void
  %sink = uop.sink(%endt : !uop.void)
  return %sink : !uop.void
}

// -----

// Not when two stores in the loop can hit one element from different
// lanes (S[ij] of lane l+1 is S[ij + 1] of lane l): the jam would order
// those two stores the other way round.
// CHECK-LABEL: func.func @shared_alloc_two_stores
// CHECK-NOT: vector<
// CHECK-NOT: llvm.loop_annotation
// CHECK: return
func.func @shared_alloc_two_stores() -> !uop.void attributes {uop.opts = #uop.opts<vector = 16>} {
  %c64 = uop.const 64 : i32
  %c4096 = uop.const 4096 : i32
  %c0 = uop.const 0 : i32
  %c1 = uop.const 1 : i32
  %zero = uop.const 0.0 : f32
  %C = uop.buffer 2 : memref<4096xf32, #uop.addrspace<global>>
  %B = uop.buffer 1 : memref<4096xf32, #uop.addrspace<global>>
  %S = uop.alloc 1 : memref<4160xf32, #uop.addrspace<local>>
  %i = uop.range %c64 idx 0 <loop>
  %j = uop.range %c64 idx 1 <loop>
  %k = uop.range %c64 idx 2 <loop>
  %iK = uop.mul %i, %c64 : i32
  %ij = uop.add %iK, %j : i32
  %ij1 = uop.add %ij, %c1 : i32
  %ps = uop.index %S[%ij] : memref<4160xf32, #uop.addrspace<local>>
  %ps1 = uop.index %S[%ij1] : memref<4160xf32, #uop.addrspace<local>>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %acc_ij = uop.after %acc, %i, %j : memref<1xf32, #uop.addrspace<local>>, i32, i32
  %p0 = uop.index %acc_ij[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %zero : !uop.ptr<f32, local>
  %acc_k = uop.after %acc_ij, %init, %k : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pk = uop.index %acc_k[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pk : !uop.ptr<f32, local>
  %kM = uop.mul %k, %c64 : i32
  %kj = uop.add %kM, %j : i32
  %pb = uop.index %B[%kj] : memref<4096xf32, #uop.addrspace<global>>
  %b = uop.load %pb : !uop.ptr<f32, global>
  %sum = uop.add %old, %b : f32
  %upd = uop.store %pk, %sum : !uop.ptr<f32, local>
  %endk = uop.end %upd, %k : !uop.void
  %acc_done = uop.after %acc_ij, %endk : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pd = uop.index %acc_done[%c0] : memref<1xf32, #uop.addrspace<local>>
  %res = uop.load %pd : !uop.ptr<f32, local>
  %st = uop.store %ps, %res : !uop.ptr<f32, local>
  %st1 = uop.store %ps1, %zero : !uop.ptr<f32, local>
  %both = uop.sink(%st, %st1 : !uop.void, !uop.void)
  %endij = uop.end %both, %i, %j : !uop.void
  %t = uop.range %c4096 idx 3 <loop>
  %S_done = uop.after %S, %endij : memref<4160xf32, #uop.addrspace<local>>, !uop.void
  %pst = uop.index %S_done[%t] : memref<4160xf32, #uop.addrspace<local>>
  %v = uop.load %pst : !uop.ptr<f32, local>
  %pc = uop.index %C[%t] : memref<4096xf32, #uop.addrspace<global>>
  %stc = uop.store %pc, %v : !uop.ptr<f32, global>
  %endt = uop.end %stc, %t : !uop.void
  %sink = uop.sink(%endt : !uop.void)
  return %sink : !uop.void
}

// -----

// Not when a store inside the reduce loop moves with it as well as with the
// lanes (C[j + k]: lane l at k+1 and lane l+1 at k write one element), to a
// buffer as to an alloc.
// CHECK-LABEL: func.func @buffer_store_in_inner_loop
// CHECK-NOT: vector<
// CHECK-NOT: llvm.loop_annotation
// CHECK: return
func.func @buffer_store_in_inner_loop() -> !uop.void attributes {uop.opts = #uop.opts<vector = 16>} {
  %c64 = uop.const 64 : i32
  %B = uop.buffer 1 : memref<4096xf32, #uop.addrspace<global>>
  %C = uop.buffer 2 : memref<128xf32, #uop.addrspace<global>>
  %j = uop.range %c64 idx 1 <loop>
  %k = uop.range %c64 idx 2 <loop>
  %kM = uop.mul %k, %c64 : i32
  %kj = uop.add %kM, %j : i32
  %pb = uop.index %B[%kj] : memref<4096xf32, #uop.addrspace<global>>
  %b = uop.load %pb : !uop.ptr<f32, global>
  %jk = uop.add %j, %k : i32
  %pc = uop.index %C[%jk] : memref<128xf32, #uop.addrspace<global>>
  %st = uop.store %pc, %b : !uop.ptr<f32, global>
  %end = uop.end %st, %k, %j : !uop.void
  %sink = uop.sink(%end : !uop.void)
  return %sink : !uop.void
}
