// RUN: uop-opt %s -split-input-file -uop-linearize=gpu=true -uop-to-gpu=temps-as-args=true | FileCheck %s --check-prefixes=CHECK,ARGS
// RUN: uop-opt %s -split-input-file -uop-linearize=gpu=true -uop-to-gpu | FileCheck %s --check-prefixes=CHECK,ALLOC
//
// Per-thread memory past 16 KiB a thread is global scratch memory: each
// large alloc is the thread's slice of a scratch buffer with one slice per
// thread of the launch (grid x block), at the thread's linear id x the
// slice's size. The buffer is a new last parameter of the kernel, which the
// host passes: a new last argument of the host (temps-as-args, which the
// runtime allocates as a temporary) or its own allocation.

// 4 blocks of 8 threads, 8192 floats (32 KiB) each: 262144 floats.
// CHECK-LABEL: func.func @main
// ARGS-SAME: (%[[OUT:.*]]: memref<32xf32>, %[[IDX:.*]]: memref<1xi32>, %[[REC:.*]]: memref<4xi32>, %[[S:.*]]: memref<262144xf32> {uop.scratch = "main"})
// ALLOC-SAME: (%[[OUT:.*]]: memref<32xf32>, %[[IDX:.*]]: memref<1xi32>, %[[REC:.*]]: memref<4xi32>)
// ALLOC: %[[S:.*]] = memref.alloc() : memref<262144xf32>
// CHECK: gpu.launch_func @uop_kernels::@main blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%[[OUT]] : memref<32xf32>, %[[IDX]] : memref<1xi32>, %[[REC]] : memref<4xi32>, %[[S]] : memref<262144xf32>)
// ALLOC-NEXT: memref.dealloc %[[S]] : memref<262144xf32>
// CHECK-NEXT: return
// CHECK: gpu.func @main(%{{.*}}: memref<32xf32> {{.*}}, %[[KS:.*]]: memref<262144xf32> {llvm.align = 16 : i64, llvm.noalias}) kernel
// CHECK-SAME: known_block_size = array<i32: 8, 1, 1>, known_grid_size = array<i32: 4, 1, 1>
// CHECK-NOT: memref.alloca
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[B8:.*]] = arith.muli %[[BX]], %[[C8]] overflow<nsw, nuw> : index
// CHECK: %[[TID:.*]] = arith.addi %[[B8]], %[[TX]] overflow<nsw, nuw> : index
// CHECK: %[[N:.*]] = arith.constant 8192 : index
// CHECK: %[[SLICE:.*]] = arith.muli %[[TID]], %[[N]] overflow<nsw, nuw> : index
// CHECK: scf.for
// CHECK: %[[I:.*]] = arith.addi %[[SLICE]], %{{.*}} overflow<nsw, nuw> : index
// CHECK: memref.store %{{.*}}, %[[KS]][%[[I]]] : memref<262144xf32>
// CHECK: %[[J:.*]] = arith.addi %[[SLICE]], %{{.*}} overflow<nsw, nuw> : index
// CHECK: memref.load %[[KS]][%[[J]]] : memref<262144xf32>
// CHECK-NOT: memref.alloca
// CHECK: gpu.return
func.func @main() -> !uop.void {
  %n = uop.const 8192 : i32
  %c4 = uop.const 4 : i32
  %c8 = uop.const 8 : i32
  %out = uop.buffer 0 : memref<32xf32, #uop.addrspace<global>>
  %idx = uop.buffer 1 : memref<1xi32, #uop.addrspace<global>>
  %g = uop.range %c4 idx 0 <global>
  %l = uop.range %c8 idx 1 <local>
  %acc = uop.alloc 0 : memref<8192xf32, #uop.addrspace<local>>
  %acc1 = uop.after %acc, %g, %l : memref<8192xf32, #uop.addrspace<local>>, i32, i32
  %r = uop.range %n idx 2 <loop>
  %p = uop.index %acc1[%r] : memref<8192xf32, #uop.addrspace<local>>
  %f = uop.cast %r : i32 to f32
  %s = uop.store %p, %f : !uop.ptr<f32, local>
  %e = uop.end %s, %r : !uop.void
  %after = uop.after %acc1, %e : memref<8192xf32, #uop.addrspace<local>>, !uop.void
  %c0 = uop.const 0 : i32
  %ip = uop.index %idx[%c0] : memref<1xi32, #uop.addrspace<global>>
  %i = uop.load %ip : !uop.ptr<i32, global>
  %q = uop.index %after[%i] : memref<8192xf32, #uop.addrspace<local>>
  %v = uop.load %q : !uop.ptr<f32, local>
  %g8 = uop.mul %g, %c8 : i32
  %o0 = uop.add %g8, %l : i32
  %o = uop.index %out[%o0] : memref<32xf32, #uop.addrspace<global>>
  %so = uop.store %o, %v : !uop.ptr<f32, global>
  %eg = uop.end %so, %g, %l : !uop.void
  %k = uop.sink(%eg : !uop.void)
  return %k : !uop.void
}

// -----

// 12 KiB a thread stays in local memory (16 KiB or less).
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{[^:]*}}: memref<1xf32>)
// CHECK-NOT: memref.alloc()
// CHECK: gpu.launch_func
// CHECK: gpu.func @main(%{{[^:]*}}: memref<1xf32> {llvm.align = 16 : i64, llvm.noalias}) kernel
// CHECK: memref.alloca() : memref<3072xf32>
func.func @main() -> !uop.void {
  %n = uop.const 3072 : i32
  %zero = uop.const 0.0 : f32
  %out = uop.buffer 0 : memref<1xf32, #uop.addrspace<global>>
  %acc = uop.alloc 0 : memref<3072xf32, #uop.addrspace<local>>
  %r = uop.range %n idx 0 <loop>
  %p = uop.index %acc[%r] : memref<3072xf32, #uop.addrspace<local>>
  %s = uop.store %p, %zero : !uop.ptr<f32, local>
  %e = uop.end %s, %r : !uop.void
  %after = uop.after %acc, %e : memref<3072xf32, #uop.addrspace<local>>, !uop.void
  %c0 = uop.const 0 : i32
  %q = uop.index %after[%c0] : memref<3072xf32, #uop.addrspace<local>>
  %v = uop.load %q : !uop.ptr<f32, local>
  %o = uop.index %out[%c0] : memref<1xf32, #uop.addrspace<global>>
  %so = uop.store %o, %v : !uop.ptr<f32, global>
  %k = uop.sink(%so : !uop.void)
  return %k : !uop.void
}

// -----

// Two large allocs (a bool one too) get a scratch buffer each, in the
// linearized kernel's order: the largest move first until the rest fits in
// 16 KiB (40000 + 20000 bytes move, the 8 KiB alloc stays).
// One thread: its slice is at 0.
// CHECK-LABEL: func.func @main
// ARGS-SAME: (%{{[^:]*}}: memref<1xf32>, %[[S0:.*]]: memref<10000xf32> {uop.scratch = "main"}, %[[S1:.*]]: memref<20000xi1> {uop.scratch = "main"})
// ALLOC-DAG: %[[S0:.*]] = memref.alloc() : memref<10000xf32>
// ALLOC-DAG: %[[S1:.*]] = memref.alloc() : memref<20000xi1>
// CHECK: gpu.launch_func @uop_kernels::@main {{.*}} args(%{{.*}} : memref<1xf32>, %[[S0]] : memref<10000xf32>, %[[S1]] : memref<20000xi1>)
// ALLOC-DAG: memref.dealloc %[[S0]]
// ALLOC-DAG: memref.dealloc %[[S1]]
// CHECK: gpu.func @main(%{{[^:]*}}: memref<1xf32> {{.*}}, %{{[^:]*}}: memref<10000xf32> {llvm.align = 16 : i64, llvm.noalias}, %{{[^:]*}}: memref<20000xi1> {llvm.align = 16 : i64, llvm.noalias}) kernel
// CHECK: memref.alloca() : memref<2048xf32>
// CHECK-NOT: memref.alloca
// CHECK: gpu.return
func.func @main() -> !uop.void {
  %c0 = uop.const 0 : i32
  %zero = uop.const 0.0 : f32
  %true = uop.const true
  %out = uop.buffer 0 : memref<1xf32, #uop.addrspace<global>>
  %a = uop.alloc 0 : memref<20000xi1, #uop.addrspace<local>>
  %b = uop.alloc 1 : memref<10000xf32, #uop.addrspace<local>>
  %c = uop.alloc 2 : memref<2048xf32, #uop.addrspace<local>>
  %pa = uop.index %a[%c0] : memref<20000xi1, #uop.addrspace<local>>
  %sa = uop.store %pa, %true : !uop.ptr<i1, local>
  %pb = uop.index %b[%c0] : memref<10000xf32, #uop.addrspace<local>>
  %sb = uop.store %pb, %zero : !uop.ptr<f32, local>
  %pc = uop.index %c[%c0] : memref<2048xf32, #uop.addrspace<local>>
  %sc = uop.store %pc, %zero : !uop.ptr<f32, local>
  %a1 = uop.after %a, %sa : memref<20000xi1, #uop.addrspace<local>>, !uop.void
  %b1 = uop.after %b, %sb : memref<10000xf32, #uop.addrspace<local>>, !uop.void
  %c1 = uop.after %c, %sc : memref<2048xf32, #uop.addrspace<local>>, !uop.void
  %qa = uop.index %a1[%c0] : memref<20000xi1, #uop.addrspace<local>>
  %va = uop.load %qa : !uop.ptr<i1, local>
  %qb = uop.index %b1[%c0] : memref<10000xf32, #uop.addrspace<local>>
  %vb = uop.load %qb : !uop.ptr<f32, local>
  %qc = uop.index %c1[%c0] : memref<2048xf32, #uop.addrspace<local>>
  %vc = uop.load %qc : !uop.ptr<f32, local>
  %w = uop.where %va, %vb, %vc : f32
  %o = uop.index %out[%c0] : memref<1xf32, #uop.addrspace<global>>
  %so = uop.store %o, %w : !uop.ptr<f32, global>
  %k = uop.sink(%so : !uop.void)
  return %k : !uop.void
}

// -----

// 256 KiB a thread in 32768 threads would be 8 GiB of scratch memory, more
// than uop allows; it fits CUDA's 512 KiB of local memory, so it stays there.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{[^:]*}}: memref<32768xf32>)
// CHECK-NOT: memref.alloc()
// CHECK: gpu.func @main
// CHECK: memref.alloca() : memref<65536xf32>
func.func @main() -> !uop.void {
  %n = uop.const 65536 : i32
  %blocks = uop.const 32768 : i32
  %zero = uop.const 0.0 : f32
  %out = uop.buffer 0 : memref<32768xf32, #uop.addrspace<global>>
  %g = uop.range %blocks idx 0 <global>
  %acc = uop.alloc 0 : memref<65536xf32, #uop.addrspace<local>>
  %acc1 = uop.after %acc, %g : memref<65536xf32, #uop.addrspace<local>>, i32
  %r = uop.range %n idx 1 <loop>
  %p = uop.index %acc1[%r] : memref<65536xf32, #uop.addrspace<local>>
  %s = uop.store %p, %zero : !uop.ptr<f32, local>
  %e = uop.end %s, %r : !uop.void
  %after = uop.after %acc1, %e : memref<65536xf32, #uop.addrspace<local>>, !uop.void
  %c0 = uop.const 0 : i32
  %q = uop.index %after[%c0] : memref<65536xf32, #uop.addrspace<local>>
  %v = uop.load %q : !uop.ptr<f32, local>
  %o = uop.index %out[%g] : memref<32768xf32, #uop.addrspace<global>>
  %so = uop.store %o, %v : !uop.ptr<f32, global>
  %eg = uop.end %so, %g : !uop.void
  %k = uop.sink(%eg : !uop.void)
  return %k : !uop.void
}
