// RUN: uop-opt %s -uop-cpu-pipeline | FileCheck %s
// RUN: uop-opt %s -uop-cpu-pipeline=openmp=false | FileCheck %s --check-prefix=SERIAL
// RUN: uop-translate --uop-to-llvmir %s | FileCheck %s --check-prefix=LLVMIR
//
// A kernel graph lowers to the LLVM dialect: buffers are bare pointers in slot
// order, thread ranges OpenMP work-sharing loops.

// CHECK: llvm.func @main(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {uop.kernel, uop.slots = array<i64: 0, 1>}
// CHECK: omp.parallel
// CHECK: omp.wsloop
// SERIAL: llvm.func @main(
// SERIAL-NOT: omp.
// LLVMIR: define void @main(ptr {{.*}}, ptr {{.*}})
// LLVMIR: __kmpc_fork_call
// LLVMIR: define void @uop_entry(ptr
func.func @main() -> !uop.void {
  %c64 = uop.const 64 : i32
  %two = uop.const 2.0 : f32
  %A = uop.buffer 0 : memref<64xf32, #uop.addrspace<global>>
  %B = uop.buffer 1 : memref<64xf32, #uop.addrspace<global>>
  %i = uop.range %c64 idx 0 <thread>
  %pa = uop.index %A[%i] : memref<64xf32, #uop.addrspace<global>>
  %a = uop.load %pa : !uop.ptr<f32, global>
  %m = uop.mul %a, %two : f32
  %pb = uop.index %B[%i] : memref<64xf32, #uop.addrspace<global>>
  %s = uop.store %pb, %m : !uop.ptr<f32, global>
  %e = uop.end %s, %i : !uop.void
  %k = uop.sink(%e : !uop.void)
  return %k : !uop.void
}

// A shaped program is kernelized first: one kernel (a gemm reduces: r_),
// whose value is stored into its next buffer slot, and a host @main taking
// the two inputs and the output, calling it.
// RUN: uop-opt %S/../../examples/gemm.mlir -uop-cpu-pipeline | FileCheck %s --check-prefix=SHAPED
// SHAPED: llvm.func @r_256_256(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {sym_visibility = "private", uop.kernel, uop.output_shape = array<i64: 256, 256>, uop.output_slot = 2 : i64, uop.slots = array<i64: 0, 1, 2>}
// SHAPED: llvm.func @main(%[[A:.*]]: !llvm.ptr, %[[B:.*]]: !llvm.ptr, %[[C:.*]]: !llvm.ptr) attributes {uop.host, uop.host_args = array<i64: 0, 0, 1>, uop.host_results = array<i64: 2>, uop.host_slots = array<i64: 0, 1, -1>}
// SHAPED-NEXT: llvm.call @r_256_256(%[[A]], %[[B]], %[[C]])
