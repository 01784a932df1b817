// RUN: uop-opt %s --pass-pipeline='builtin.module(gpu.module(uop-prefetch-to-nvvm))' | FileCheck %s

// A data read prefetch of a generic pointer (a kernel buffer, bare-pointer
// convention) becomes PTX's prefetch.global.L1 through a cast to global
// memory; one already in global memory is used as it is. Write and
// instruction-cache prefetches have no PTX form and are dropped.
// CHECK-LABEL: llvm.func @k
// CHECK-SAME:  (%[[P:.*]]: !llvm.ptr, %[[G:.*]]: !llvm.ptr<1>)
// CHECK-NEXT:  %[[C:.*]] = llvm.addrspacecast %[[P]] : !llvm.ptr to !llvm.ptr<1>
// CHECK-NEXT:  nvvm.prefetch level = {{ *}}L1, %[[C]] : !llvm.ptr<1>
// CHECK-NEXT:  nvvm.prefetch level = {{ *}}L1, %[[G]] : !llvm.ptr<1>
// CHECK-NEXT:  llvm.return
gpu.module @uop_kernels {
  llvm.func @k(%p: !llvm.ptr, %g: !llvm.ptr<1>) {
    "llvm.intr.prefetch"(%p) <{rw = 0 : i32, hint = 3 : i32, cache = 1 : i32}> : (!llvm.ptr) -> ()
    "llvm.intr.prefetch"(%g) <{rw = 0 : i32, hint = 3 : i32, cache = 1 : i32}> : (!llvm.ptr<1>) -> ()
    "llvm.intr.prefetch"(%p) <{rw = 1 : i32, hint = 3 : i32, cache = 1 : i32}> : (!llvm.ptr) -> ()
    "llvm.intr.prefetch"(%p) <{rw = 0 : i32, hint = 3 : i32, cache = 0 : i32}> : (!llvm.ptr) -> ()
    llvm.return
  }
}
