// RUN: uop-opt %s -split-input-file -uop-linearize | FileCheck %s

// test_w03 test_loop_invariant_code_is_hoisted: row = A[i*N] depends only on
// i, so it is loaded before the j loop opens.
// CHECK-LABEL: func.func @hoist
// CHECK-SAME: (%[[A:.*]]: memref<64xf32>, %[[C:.*]]: memref<64xf32>)
// CHECK-SAME: uop.slots = array<i64: 0, 1>
// CHECK: scf.for %[[I:.*]] =
// CHECK: %[[ROW:.*]] = memref.load %[[A]]
// CHECK: scf.for %[[J:.*]] =
// CHECK: %[[X:.*]] = memref.load %[[A]]
// CHECK: arith.addf %[[ROW]], %[[X]] : f32
// CHECK: memref.store
func.func @hoist() -> !uop.void {
  %n = uop.const 8 : i32
  %A = uop.buffer 0 : memref<64xf32, #uop.addrspace<global>>
  %C = uop.buffer 1 : memref<64xf32, #uop.addrspace<global>>
  %i = uop.range %n idx 0 <loop>
  %j = uop.range %n idx 1 <loop>
  %iN = uop.mul %i, %n : i32
  %p0 = uop.index %A[%iN] : memref<64xf32, #uop.addrspace<global>>
  %row = uop.load %p0 : !uop.ptr<f32, global>
  %ij = uop.add %iN, %j : i32
  %p1 = uop.index %A[%ij] : memref<64xf32, #uop.addrspace<global>>
  %x = uop.load %p1 : !uop.ptr<f32, global>
  %s = uop.add %row, %x : f32
  %pc = uop.index %C[%ij] : memref<64xf32, #uop.addrspace<global>>
  %st = uop.store %pc, %s : !uop.ptr<f32, global>
  %e = uop.end %st, %i, %j : !uop.void
  %k = uop.sink(%e : !uop.void)
  return %k : !uop.void
}

// -----

// Sibling loops: the second loop reads (through an END and AFTER) what the
// first wrote, so the first runs first even though its idx is larger.
// CHECK-LABEL: func.func @siblings
// CHECK: %[[T:.*]] = memref.alloca() : memref<4xf32>
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[T]]
// CHECK: }
// CHECK: scf.for
// CHECK: memref.load %[[T]]
// CHECK: memref.store
func.func @siblings() -> !uop.void {
  %c4 = uop.const 4 : i32
  %one = uop.const 1.0 : f32
  %out = uop.buffer 0 : memref<4xf32, #uop.addrspace<global>>
  %tmp = uop.alloc 0 : memref<4xf32, #uop.addrspace<local>>
  %w = uop.range %c4 idx 5 <loop>
  %pw = uop.index %tmp[%w] : memref<4xf32, #uop.addrspace<local>>
  %sw = uop.store %pw, %one : !uop.ptr<f32, local>
  %ew = uop.end %sw, %w : !uop.void
  %r = uop.range %c4 idx 0 <loop>
  %tr = uop.after %tmp, %ew : memref<4xf32, #uop.addrspace<local>>, !uop.void
  %pr = uop.index %tr[%r] : memref<4xf32, #uop.addrspace<local>>
  %v = uop.load %pr : !uop.ptr<f32, local>
  %po = uop.index %out[%r] : memref<4xf32, #uop.addrspace<global>>
  %so = uop.store %po, %v : !uop.ptr<f32, global>
  %er = uop.end %so, %r : !uop.void
  %k = uop.sink(%er : !uop.void)
  return %k : !uop.void
}

// -----

// THREAD ranges become scf.parallel; an accumulator used inside one is
// allocated per thread, at the top of the parallel body. The accumulating add
// is the only op that may be reassociated.
// CHECK-LABEL: func.func @threads
// CHECK: scf.parallel
// CHECK-NEXT: %[[ACC:.*]] = memref.alloca() : memref<1xf32>
// CHECK: scf.for
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
func.func @threads() -> !uop.void {
  %c4 = uop.const 4 : i32
  %c0 = uop.const 0 : i32
  %zero = uop.const 0.0 : f32
  %half = uop.const 0.5 : f32
  %A = uop.buffer 0 : memref<16xf32, #uop.addrspace<global>>
  %O = uop.buffer 1 : memref<4xf32, #uop.addrspace<global>>
  %i = uop.range %c4 idx 0 <thread>
  %k = uop.range %c4 idx 1 <reduce>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %ai = uop.after %acc, %i : memref<1xf32, #uop.addrspace<local>>, i32
  %p0 = uop.index %ai[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %zero : !uop.ptr<f32, local>
  %ak = uop.after %ai, %init, %k : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pk = uop.index %ak[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pk : !uop.ptr<f32, local>
  %i4 = uop.mul %i, %c4 : i32
  %idx = uop.add %i4, %k : i32
  %pa = uop.index %A[%idx] : memref<16xf32, #uop.addrspace<global>>
  %a = uop.load %pa : !uop.ptr<f32, global>
  %aa = uop.mul %a, %a : f32
  %sum = uop.add %old, %aa : f32
  %upd = uop.store %pk, %sum : !uop.ptr<f32, local>
  %ek = uop.end %upd, %k : !uop.void
  %ad = uop.after %ai, %ek : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pd = uop.index %ad[%c0] : memref<1xf32, #uop.addrspace<local>>
  %res = uop.load %pd : !uop.ptr<f32, local>
  %plus = uop.add %res, %half : f32
  %po = uop.index %O[%i] : memref<4xf32, #uop.addrspace<global>>
  %so = uop.store %po, %plus : !uop.ptr<f32, global>
  %ei = uop.end %so, %i : !uop.void
  %s = uop.sink(%ei : !uop.void)
  return %s : !uop.void
}

// -----

// render_c's semantics: C max, unordered !=, C casts, floor div/mod.
// CHECK-LABEL: func.func @semantics
// CHECK-DAG: %[[GT:.*]] = arith.cmpf ogt, %[[X:.*]], %[[Y:.*]] : f32
// CHECK-DAG: arith.select %[[GT]], %[[X]], %[[Y]] : f32
// CHECK-DAG: arith.cmpf une, %{{.*}}, %[[Y]] : f32
// CHECK-DAG: arith.cmpf olt
// CHECK-DAG: arith.fptosi %{{.*}} : f32 to i32
// CHECK-DAG: arith.sitofp %{{.*}} : i32 to f16
// CHECK-DAG: arith.extui %{{.*}} : i1 to i32
// CHECK-DAG: arith.floordivsi
// CHECK-DAG: arith.remsi
// CHECK-DAG: arith.xori
// CHECK-DAG: arith.divf
// CHECK-DAG: math.exp2
// CHECK-DAG: math.log2
// CHECK-DAG: math.sqrt
// CHECK-DAG: math.sin
// CHECK-NOT: fastmath
// CHECK: return
func.func @semantics() -> !uop.void {
  %c0 = uop.const 0 : i32
  %c1 = uop.const 1 : i32
  %F = uop.buffer 0 : memref<2xf32, #uop.addrspace<global>>
  %I = uop.buffer 1 : memref<2xi32, #uop.addrspace<global>>
  %H = uop.buffer 2 : memref<1xf16, #uop.addrspace<global>>
  %B = uop.buffer 3 : memref<1xi1, #uop.addrspace<global>>
  %px = uop.index %F[%c0] : memref<2xf32, #uop.addrspace<global>>
  %py = uop.index %F[%c1] : memref<2xf32, #uop.addrspace<global>>
  %x = uop.load %px : !uop.ptr<f32, global>
  %y = uop.load %py : !uop.ptr<f32, global>
  %m = uop.max %x, %y : f32
  %ne = uop.cmpne %m, %y : f32
  %lt = uop.cmplt %x, %y : f32
  %pi = uop.index %I[%c0] : memref<2xi32, #uop.addrspace<global>>
  %pj = uop.index %I[%c1] : memref<2xi32, #uop.addrspace<global>>
  %xi = uop.cast %x : f32 to i32
  %xh = uop.cast %xi : i32 to f16
  %bi = uop.cast %ne : i1 to i32
  %xb = uop.cast %y : f32 to i1
  %j = uop.load %pj : !uop.ptr<i32, global>
  %d = uop.floordiv %xi, %j : i32
  %r = uop.floormod %bi, %j : i32
  %rc = uop.recip %x : f32
  %e = uop.exp2 %rc : f32
  %l = uop.log2 %e : f32
  %q = uop.sqrt %l : f32
  %s = uop.sin %q : f32
  %s0 = uop.store %pi, %d : !uop.ptr<i32, global>
  %s1 = uop.store %pj, %r : !uop.ptr<i32, global>
  %ph = uop.index %H[%c0] : memref<1xf16, #uop.addrspace<global>>
  %s2 = uop.store %ph, %xh : !uop.ptr<f16, global>
  %pb = uop.index %B[%c0] : memref<1xi1, #uop.addrspace<global>>
  %w = uop.where %lt, %xb, %ne : i1
  %s3 = uop.store %pb, %w : !uop.ptr<i1, global>
  %s4 = uop.store %px, %s : !uop.ptr<f32, global>
  %k = uop.sink(%s0, %s1, %s2, %s3, %s4 : !uop.void, !uop.void, !uop.void, !uop.void, !uop.void)
  return %k : !uop.void
}

// -----

// Division by a positive constant of a provably non-negative value is plain
// C division (render_c's rule), when the bounds of the uop ops are known.
// CHECK-LABEL: func.func @plain_div
// CHECK: scf.for
// CHECK: arith.divsi %{{.*}}, %{{.*}} : i32
// CHECK: arith.remsi %{{.*}}, %{{.*}} : i32
// CHECK-NOT: floordivsi
func.func @plain_div() -> !uop.void {
  %c8 = uop.const 8 : i32
  %c4 = uop.const 4 : i32
  %O = uop.buffer 0 : memref<8xi32, #uop.addrspace<global>>
  %i = uop.range %c8 idx 0 <loop>
  %d = uop.floordiv %i, %c4 : i32
  %m = uop.floormod %i, %c4 : i32
  %s = uop.add %d, %m : i32
  %p = uop.index %O[%i] : memref<8xi32, #uop.addrspace<global>>
  %st = uop.store %p, %s : !uop.ptr<i32, global>
  %e = uop.end %st, %i : !uop.void
  %k = uop.sink(%e : !uop.void)
  return %k : !uop.void
}

// -----

// Functions that are not kernel graphs are left alone.
// CHECK-LABEL: func.func @value_program
// CHECK: uop.add
func.func @value_program(%x: i32) -> i32 {
  %0 = uop.add %x, %x : i32
  return %0 : i32
}
