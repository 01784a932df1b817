5// Not when the loop stores into a buffer it also reads (a later iteration
// could read what an earlier one wrote), nor when the trip count is no
// multiple of 8.
func.func @in_place() -> !uop.void {
  %c64 = uop.const 64 : i32
  %c0 = uop.const 0 : i32
  %zero = uop.const 0.0 : f32
  %B = uop.buffer 0 : memref<4096xf32, #uop.addrspace<global>>
  %j = uop.range %c64 idx 1 <loop>
  %k = uop.range %c64 idx 2 <loop>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %acc_j = uop.after %acc, %j : memref<1xf32, #uop.addrspace<local>>, i32
  %p0 = uop.index %acc_j[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %zero : !uop.ptr<f32, local>
  %acc_k = uop.after %acc_j, %init, %k : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pk = uop.index %acc_k[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pk : !uop.ptr<f32, local>
  %kM = uop.mul %k, %c64 : i32
  %kj = uop.add %kM, %j : i32
  %pb = uop.index %B[%kj] : memref<4096xf32, #uop.addrspace<global>>
  %b = uop.load %pb : !uop.ptr<f32, global>
  %sum = uop.add %old, %b : f32
  %upd = uop.store %pk, %sum : !uop.ptr<f32, local>
  %endk = uop.end %upd, %k : !uop.void
  %done = uop.after %acc_j, %endk : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pd = uop.index %done[%c0] : memref<1xf32, #uop.addrspace<local>>
  %res = uop.load %pd : !uop.ptr<f32, local>
  %po = uop.index %B[%j] : memref<4096xf32, #uop.addrspace<global>>
  %st = uop.store %po, %res : !uop.ptr<f32, global>
  %endj = uop.end %st, %j : !uop.void
  %sink = uop.sink(%endj : !uop.void)
  return %sink : !uop.void
}
