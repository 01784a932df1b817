// RUN: uop-opt %s -split-input-file -uop-linearize=gpu=true | FileCheck %s
// RUN: uop-opt %s -split-input-file -uop-linearize | FileCheck %s --check-prefix=CPU
//
// uop-linearize{gpu=true} keeps the GPU structure for uop-to-gpu: each
// GLOBAL/LOCAL range is a GPU-mapped scf.parallel (the upstream mapping
// attribute of gpu-map-parallel-loops, plus the range's kind). Per kind, the
// range with the highest idx (the fastest-varying axis) is on x, as the
// seed's CUDARenderer. On the CPU path the same ranges are loops.

// An 8x64 elementwise kernel: rows = g0*4 + l0, cols = g1*16 + l1.
// CHECK-LABEL: func.func @e_8_64
// CHECK-SAME: (%[[OUT:.*]]: memref<512xf32>)
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C2]]) step
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>], uop.axis = #uop.axis<local>}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>], uop.axis = #uop.axis<global>}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>], uop.axis = #uop.axis<local>}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>], uop.axis = #uop.axis<global>}
// CHECK-NEXT: return
// CPU-LABEL: func.func @e_8_64
// CPU-NOT: scf.parallel
// CPU-COUNT-4: scf.for
// CPU-NOT: mapping
func.func @e_8_64() -> !uop.void {
  %c2 = uop.const 2 : i32
  %c4 = uop.const 4 : i32
  %c16 = uop.const 16 : i32
  %c64 = uop.const 64 : i32
  %one = uop.const 1.0 : f32
  %out = uop.buffer 0 : memref<512xf32, #uop.addrspace<global>>
  %g0 = uop.range %c2 idx 0 <global>
  %l0 = uop.range %c4 idx 1 <local>
  %g1 = uop.range %c4 idx 2 <global>
  %l1 = uop.range %c16 idx 3 <local>
  %r0 = uop.mul %g0, %c4 : i32
  %row = uop.add %r0, %l0 : i32
  %c0 = uop.mul %g1, %c16 : i32
  %col = uop.add %c0, %l1 : i32
  %rN = uop.mul %row, %c64 : i32
  %i = uop.add %rN, %col : i32
  %p = uop.index %out[%i] : memref<512xf32, #uop.addrspace<global>>
  %s = uop.store %p, %one : !uop.ptr<f32, global>
  %e = uop.end %s, %g0, %l0, %g1, %l1 : !uop.void
  %k = uop.sink(%e : !uop.void)
  return %k : !uop.void
}

// -----

// A thread range (CPU threads) in a GPU kernel is a serial loop; an
// accumulator inside a GPU range is allocated per iteration (per thread).
// CHECK-LABEL: func.func @thread_is_serial
// CHECK: scf.parallel
// CHECK-NEXT: memref.alloca() : memref<1xf32>
// CHECK: scf.for
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CPU-LABEL: func.func @thread_is_serial
// CPU: scf.parallel
// CPU-NOT: mapping
func.func @thread_is_serial() -> !uop.void {
  %c4 = uop.const 4 : i32
  %zero = uop.const 0.0 : f32
  %one = uop.const 1.0 : f32
  %out = uop.buffer 0 : memref<4xf32, #uop.addrspace<global>>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %l = uop.range %c4 idx 0 <local>
  %a0 = uop.after %acc, %l : memref<1xf32, #uop.addrspace<local>>, i32
  %z = uop.const 0 : i32
  %pa = uop.index %a0[%z] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %pa, %zero : !uop.ptr<f32, local>
  %t = uop.range %c4 idx 1 <thread>
  %a1 = uop.after %a0, %init, %t : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pa1 = uop.index %a1[%z] : memref<1xf32, #uop.addrspace<local>>
  %v = uop.load %pa1 : !uop.ptr<f32, local>
  %w = uop.add %v, %one : f32
  %st = uop.store %pa1, %w : !uop.ptr<f32, local>
  %et = uop.end %st, %t : !uop.void
  %a2 = uop.after %a0, %et : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pa2 = uop.index %a2[%z] : memref<1xf32, #uop.addrspace<local>>
  %r = uop.load %pa2 : !uop.ptr<f32, local>
  %po = uop.index %out[%l] : memref<4xf32, #uop.addrspace<global>>
  %so = uop.store %po, %r : !uop.ptr<f32, global>
  %e = uop.end %so, %l : !uop.void
  %k = uop.sink(%e : !uop.void)
  return %k : !uop.void
}
