5//
// A serial loop directly around a reduction that reads memory with stride 1
// in the outer loop and another stride in the inner one (gemm's j loop over
// B[k*N + j]) is unrolled and jammed by 32 f32 lanes: each lane has its own
// accumulator, the inner loop asks LLVM not to vectorize it, and the lanes'
// loads sit side by side for the SLP vectorizer.

func.func @gemm() -> !uop.void {
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
