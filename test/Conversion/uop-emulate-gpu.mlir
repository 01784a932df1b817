// RUN: uop-opt %s -uop-linearize=gpu=true -uop-emulate-gpu -canonicalize | FileCheck %s
// RUN: uop-opt %s -uop-linearize=emulate-barriers=true -uop-emulate-gpu -canonicalize | FileCheck %s
//
// 4 blocks of 16 threads: each thread loads x = in[b*16 + t], stores 2x into
// shared memory, waits at the barrier, and writes its mirror's 2x plus x.
// uop-emulate-gpu splits the thread loop at the barrier: the loaded x lives
// across it in a per-thread array, the index b*16 + t is recomputed, the
// shared array is an ordinary alloca, and no barrier is left.
// (Run on the CPU: test/Integration/CPU/emulate-barrier.uir.)

// CHECK-LABEL: func.func @reverse
// CHECK-SAME: (%[[IN:.*]]: memref<64xf32>, %[[OUT:.*]]: memref<64xf32>)
// CHECK-DAG: %[[X:.*]] = memref.alloca() : memref<16xf32>
// CHECK-DAG: %[[SH:.*]] = memref.alloca() : memref<16xf32>
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[V:.*]] = memref.load %[[IN]]
// CHECK: memref.store %[[V]], %[[X]][%[[T]]]
// CHECK: %[[V2:.*]] = arith.mulf %[[V]]
// CHECK: memref.store %[[V2]], %[[SH]][%[[T]]]
// CHECK: }
// CHECK-NEXT: scf.for %[[T2:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[XV:.*]] = memref.load %[[X]][%[[T2]]]
// CHECK: %[[M:.*]] = memref.load %[[SH]]
// CHECK: %[[S:.*]] = arith.addf %[[M]], %[[XV]]
// CHECK: memref.store %[[S]], %[[OUT]]
// CHECK-NOT: gpu.barrier
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @reverse() -> !uop.void {
  %c4 = uop.const 4 : i32
  %c16 = uop.const 16 : i32
  %c15 = uop.const 15 : i32
  %two = uop.const 2.0 : f32
  %in = uop.buffer 0 : memref<64xf32, #uop.addrspace<global>>
  %out = uop.buffer 1 : memref<64xf32, #uop.addrspace<global>>
  %sh = uop.alloc 0 : memref<16xf32, #uop.addrspace<shared>>
  %g = uop.range %c4 idx 0 <global>
  %l = uop.range %c16 idx 1 <local>
  %g16 = uop.mul %g, %c16 : i32
  %i = uop.add %g16, %l : i32
  %pi = uop.index %in[%i] : memref<64xf32, #uop.addrspace<global>>
  %x = uop.load %pi : !uop.ptr<f32, global>
  %x2 = uop.mul %x, %two : f32
  %sh0 = uop.after %sh, %g : memref<16xf32, #uop.addrspace<shared>>, i32
  %ps = uop.index %sh0[%l] : memref<16xf32, #uop.addrspace<shared>>
  %st = uop.store %ps, %x2 : !uop.ptr<f32, shared>
  %bar = uop.barrier(%st : !uop.void)
  %sh1 = uop.after %sh, %bar : memref<16xf32, #uop.addrspace<shared>>, !uop.void
  %m1 = uop.const -1 : i32
  %neg = uop.mul %l, %m1 : i32
  %j = uop.add %neg, %c15 : i32
  %pr = uop.index %sh1[%j] : memref<16xf32, #uop.addrspace<shared>>
  %y = uop.load %pr : !uop.ptr<f32, shared>
  %s = uop.add %y, %x : f32
  %po = uop.index %out[%i] : memref<64xf32, #uop.addrspace<global>>
  %so = uop.store %po, %s : !uop.ptr<f32, global>
  %e = uop.end %so, %g, %l : !uop.void
  %k = uop.sink(%e : !uop.void)
  return %k : !uop.void
}
