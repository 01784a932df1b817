// RUN: uop-opt %s -uop-to-gpu | FileCheck %s
// RUN: uop-opt %s -uop-to-gpu -canonicalize -cse | FileCheck %s --check-prefix=CANON
//
// uop-to-gpu on the IR of uop-linearize{gpu=true} + uop-lower-host: kernels
// become gpu.func kernels (block/thread ids on the dimensions their mapping
// names, known block and grid sizes from the range ends), the host's calls
// gpu.launch_func with constant grid and block sizes and the call's operands.

// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[A:.*]]: memref<512xf32>, %[[B:.*]]: memref<512xf32>, %[[T:.*]]: memref<1xf32>)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: gpu.launch_func @uop_kernels::@e_8_64 blocks in (%[[C4]], %[[C2]], %[[C1]]) threads in (%[[C64]], %[[C1]], %[[C1]]) args(%[[B]] : memref<512xf32>, %[[A]] : memref<512xf32>)
// CHECK: gpu.launch_func @uop_kernels::@r_1 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%[[A]] : memref<512xf32>, %[[T]] : memref<1xf32>)
// CHECK-NOT: call
// CHECK: return

// CHECK: gpu.module @uop_kernels
// Each buffer is its own allocation: no aliasing, 16-byte alignment, and a
// buffer the kernel only reads is read-only (PTX: ld.global.nc, vector loads).
// CHECK: gpu.func @e_8_64(%[[KA:[^:]*]]: memref<512xf32> {llvm.align = 16 : i64, llvm.noalias, llvm.readonly}, %[[KB:[^:]*]]: memref<512xf32> {llvm.align = 16 : i64, llvm.noalias}) kernel
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 4, 2, 1>
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: arith.muli %[[BY]], %{{.*}} : index
// CHECK: arith.muli %[[BX]], %{{.*}} : index
// CHECK: arith.addi %{{.*}}, %[[TX]] : index
// CHECK: memref.store %{{.*}}, %[[KB]]
// CHECK-NOT: scf.parallel
// CHECK: gpu.return

// A kernel without GPU ranges (a CPU-mapped kernel) runs as one thread.
// CHECK: gpu.func @r_1(%{{.*}}: memref<512xf32> {llvm.align = 16 : i64, llvm.noalias, llvm.readonly}, %{{.*}}: memref<1xf32> {llvm.align = 16 : i64, llvm.noalias}) kernel
// CHECK-SAME: known_block_size = array<i32: 1, 1, 1>, known_grid_size = array<i32: 1, 1, 1>
// CHECK: memref.alloca() : memref<1xf32>
// CHECK: scf.for
// CHECK: gpu.return

// CANON-LABEL: func.func @main
// CANON: gpu.launch_func @uop_kernels::@e_8_64 blocks in (%[[C4:.*]], %[[C2:.*]], %[[C1:.*]]) threads in (%[[C64:.*]], %[[C1]], %[[C1]])
// CANON: gpu.launch_func @uop_kernels::@r_1 blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]])

func.func private @e_8_64(%a: memref<512xf32>, %b: memref<512xf32>) attributes {uop.kernel, uop.slots = array<i64: 0, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%by) = (%c0) to (%c2) step (%c1) {
    scf.parallel (%bx) = (%c0) to (%c4) step (%c1) {
      scf.parallel (%tx) = (%c0) to (%c64) step (%c1) {
        %r = arith.muli %by, %c256 : index
        %q = arith.muli %bx, %c64 : index
        %s = arith.addi %r, %q : index
        %i = arith.addi %s, %tx : index
        %v = memref.load %a[%i] : memref<512xf32>
        memref.store %v, %b[%i] : memref<512xf32>
        scf.reduce
      } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>], uop.axis = #uop.axis<local>}
      scf.reduce
    } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>], uop.axis = #uop.axis<global>}
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>], uop.axis = #uop.axis<global>}
  return
}

func.func private @r_1(%a: memref<512xf32>, %out: memref<1xf32>) attributes {uop.kernel, uop.slots = array<i64: 0, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloca() : memref<1xf32>
  memref.store %zero, %acc[%c0] : memref<1xf32>
  scf.for %i = %c0 to %c512 step %c1 {
    %x = memref.load %a[%i] : memref<512xf32>
    %y = memref.load %acc[%c0] : memref<1xf32>
    %z = arith.addf %x, %y : f32
    memref.store %z, %acc[%c0] : memref<1xf32>
  }
  %r = memref.load %acc[%c0] : memref<1xf32>
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

func.func @main(%a: memref<512xf32>, %b: memref<512xf32>, %t: memref<1xf32>) attributes {uop.host} {
  call @e_8_64(%b, %a) : (memref<512xf32>, memref<512xf32>) -> ()
  call @r_1(%a, %t) : (memref<512xf32>, memref<1xf32>) -> ()
  return
}
