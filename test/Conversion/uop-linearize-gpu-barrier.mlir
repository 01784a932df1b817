// RUN: uop-opt %s -uop-linearize=gpu=true | FileCheck %s
// RUN: uop-opt %s -uop-linearize=gpu=true -uop-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: not uop-opt %s -uop-linearize 2>&1 | FileCheck %s --check-prefix=CPU
//
// Shared memory and barriers on the GPU path: a block of 16 threads reverses
// 16 floats through shared memory. The shared alloc is a workgroup alloca at
// the kernel's entry (uop-to-gpu makes it a workgroup attribution, a .shared
// array), the barrier a gpu.barrier. The CPU path cannot run it.

// CHECK-LABEL: func.func @reverse
// CHECK-SAME: (%[[IN:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>)
// CHECK-NEXT: %[[SH:.*]] = memref.alloca() : memref<16xf32, #gpu.address_space<workgroup>>
// CHECK: scf.parallel
// CHECK: %[[X:.*]] = memref.load %[[IN]]
// CHECK: memref.store %[[X]], %[[SH]]
// CHECK-NEXT: gpu.barrier
// CHECK: %[[Y:.*]] = memref.load %[[SH]]
// CHECK: memref.store %[[Y]], %[[OUT]]
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>], uop.axis = #uop.axis<local>}

// GPU: gpu.module @uop_kernels
// GPU: gpu.func @reverse(%{{.*}}: memref<16xf32> {llvm.align = 16 : i64, llvm.noalias, llvm.readonly}, %{{.*}}: memref<16xf32> {llvm.align = 16 : i64, llvm.noalias}) workgroup(%[[WG:.*]] : memref<16xf32, #gpu.address_space<workgroup>>) kernel
// GPU-SAME: known_block_size = array<i32: 16, 1, 1>, known_grid_size = array<i32: 1, 1, 1>
// GPU: gpu.thread_id x
// GPU: memref.store %{{.*}}, %[[WG]]
// GPU-NEXT: gpu.barrier
// GPU: memref.load %[[WG]]
// GPU-NOT: memref.alloca

// CPU: error: 'uop.barrier' op uop-linearize: barriers need the GPU path (uop-to-gpu)
func.func @reverse() -> !uop.void {
  %c16 = uop.const 16 : i32
  %c15 = uop.const 15 : i32
  %in = uop.buffer 0 : memref<16xf32, #uop.addrspace<global>>
  %out = uop.buffer 1 : memref<16xf32, #uop.addrspace<global>>
  %sh = uop.alloc 0 : memref<16xf32, #uop.addrspace<shared>>
  %l = uop.range %c16 idx 0 <local>
  %pi = uop.index %in[%l] : memref<16xf32, #uop.addrspace<global>>
  %x = uop.load %pi : !uop.ptr<f32, global>
  %ps = uop.index %sh[%l] : memref<16xf32, #uop.addrspace<shared>>
  %st = uop.store %ps, %x : !uop.ptr<f32, shared>
  %bar = uop.barrier(%st : !uop.void)
  %sh1 = uop.after %sh, %bar : memref<16xf32, #uop.addrspace<shared>>, !uop.void
  %m1 = uop.const -1 : i32
  %neg = uop.mul %l, %m1 : i32
  %j = uop.add %neg, %c15 : i32
  %pr = uop.index %sh1[%j] : memref<16xf32, #uop.addrspace<shared>>
  %y = uop.load %pr : !uop.ptr<f32, shared>
  %po = uop.index %out[%l] : memref<16xf32, #uop.addrspace<global>>
  %so = uop.store %po, %y : !uop.ptr<f32, global>
  %e = uop.end %so, %l : !uop.void
  %k = uop.sink(%e : !uop.void)
  return %k : !uop.void
}
