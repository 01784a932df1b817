// RUN: uop-opt %s -uop-to-gpu=temps-as-args=true | FileCheck %s --check-prefixes=CHECK,ARGS
// RUN: uop-opt %s -uop-to-gpu | FileCheck %s --check-prefixes=CHECK,ALLOC
//
// The host of uop-lower-host: a kernel with a large per-thread alloc gets
// one scratch buffer for all its launches (they run one after another); with
// temps-as-args it is the host's new last argument, a temporary in
// uop.host_args (2) with no slot (-1). Workgroup memory stays an
// attribution, after the scratch parameter.

// CHECK-LABEL: func.func @main
// ARGS-SAME: (%[[A:[^:]*]]: memref<64xf32>, %[[B:[^:]*]]: memref<64xf32>, %[[S:[^:]*]]: memref<2097152xf32> {uop.scratch = "big"})
// ARGS-SAME: uop.host_args = array<i64: 0, 1, 2>
// ARGS-SAME: uop.host_slots = array<i64: 0, -1, -1>
// ALLOC-SAME: (%[[A:[^:]*]]: memref<64xf32>, %[[B:[^:]*]]: memref<64xf32>)
// ALLOC: %[[S:.*]] = memref.alloc() : memref<2097152xf32>
// CHECK: gpu.launch_func @uop_kernels::@big {{.*}} args(%[[A]] : memref<64xf32>, %[[B]] : memref<64xf32>, %[[S]] : memref<2097152xf32>)
// CHECK: gpu.launch_func @uop_kernels::@small {{.*}} args(%[[B]] : memref<64xf32>)
// CHECK: gpu.launch_func @uop_kernels::@big {{.*}} args(%[[B]] : memref<64xf32>, %[[A]] : memref<64xf32>, %[[S]] : memref<2097152xf32>)
// ALLOC-NEXT: memref.dealloc %[[S]] : memref<2097152xf32>
// CHECK-NEXT: return

// 2 x 32 threads: thread (block y, thread x) is 32 * y + x.
// CHECK: gpu.func @big(%{{[^:]*}}: memref<64xf32> {{{.*}}}, %[[KB:[^:]*]]: memref<64xf32> {{{.*}}}, %[[KS:[^:]*]]: memref<2097152xf32> {llvm.align = 16 : i64, llvm.noalias}) workgroup(%[[W:.*]] : memref<32xf32, #gpu.address_space<workgroup>>) kernel
// CHECK-NOT: memref.alloca
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[B32:.*]] = arith.muli %[[BY]], %[[C32]] overflow<nsw, nuw> : index
// CHECK: %[[TID:.*]] = arith.addi %[[B32]], %[[TX]] overflow<nsw, nuw> : index
// CHECK: %[[N:.*]] = arith.constant 32768 : index
// CHECK: %[[SLICE:.*]] = arith.muli %[[TID]], %[[N]] overflow<nsw, nuw> : index
// CHECK: %[[I:.*]] = arith.addi %[[SLICE]], %{{.*}} overflow<nsw, nuw> : index
// CHECK: memref.store %{{.*}}, %[[KS]][%[[I]]] : memref<2097152xf32>
// CHECK: %[[J:.*]] = arith.addi %[[SLICE]], %{{.*}} overflow<nsw, nuw> : index
// CHECK: vector.load %[[KS]][%[[J]]] : memref<2097152xf32>, vector<4xf32>
// CHECK: memref.store %{{.*}}, %[[W]]
// CHECK: gpu.return
// CHECK: gpu.func @small(%{{[^:]*}}: memref<64xf32> {{{.*}}}) kernel

func.func private @big(%a: memref<64xf32>, %b: memref<64xf32>) attributes {uop.kernel, uop.slots = array<i64: 0, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c32768 = arith.constant 32768 : index
  %shared = memref.alloca() : memref<32xf32, #gpu.address_space<workgroup>>
  scf.parallel (%by) = (%c0) to (%c2) step (%c1) {
    scf.parallel (%tx) = (%c0) to (%c32) step (%c1) {
      // 128 KiB a thread.
      %big = memref.alloca() : memref<32768xf32>
      %r = arith.muli %by, %c32 : index
      %i = arith.addi %r, %tx : index
      %x = memref.load %a[%i] : memref<64xf32>
      scf.for %j = %c0 to %c32768 step %c1 {
        memref.store %x, %big[%j] : memref<32768xf32>
      }
      %v = vector.load %big[%i] : memref<32768xf32>, vector<4xf32>
      %y = vector.extract %v[3] : f32 from vector<4xf32>
      memref.store %y, %shared[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %y, %b[%i] : memref<64xf32>
      scf.reduce
    } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>], uop.axis = #uop.axis<local>}
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>], uop.axis = #uop.axis<global>}
  return
}

func.func private @small(%a: memref<64xf32>) attributes {uop.kernel, uop.slots = array<i64: 0>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %a[%c0] : memref<64xf32>
  return
}

func.func @main(%a: memref<64xf32>, %b: memref<64xf32>) attributes {uop.host, uop.host_args = array<i64: 0, 1>, uop.host_slots = array<i64: 0, -1>} {
  call @big(%a, %b) : (memref<64xf32>, memref<64xf32>) -> ()
  call @small(%b) : (memref<64xf32>) -> ()
  call @big(%b, %a) : (memref<64xf32>, memref<64xf32>) -> ()
  return
}
