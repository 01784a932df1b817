5// THREAD ranges become scf.parallel; an accumulator used inside one is
// allocated per thread, at the top of the parallel body. The accumulating add
// is the only op that may be reassociated.
func.func @threads() -> !uop.void {
  %c4 = uop.const 4 : i32
  %c0 = uop.const 0 : i32
  %zero = uop.const 0.0 : f32
  %half = uop.const 0.5 : f32
  %A = uop.buffer 0 : memref<16xf32, #uop.addrspace<global>>
  %O = uop.buffer 1 : memref<4xf32, #uop.addrspace<global>>
  %i = uop.range %c4 idx 0 <thread>
  %k = uop.range %c4 idx 1 <reduce>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %ai = uop.after %acc, %i : memref<1xf32, #uop.addrspace<local>>, i32
  %p0 = uop.index %ai[%c0] : memref<1xf32, #uop.addrspace<local>>
  %init = uop.store %p0, %zero : !uop.ptr<f32, local>
  %ak = uop.after %ai, %init, %k : memref<1xf32, #uop.addrspace<local>>, !uop.void, i32
  %pk = uop.index %ak[%c0] : memref<1xf32, #uop.addrspace<local>>
  %old = uop.load %pk : !uop.ptr<f32, local>
  %i4 = uop.mul %i, %c4 : i32
  %idx = uop.add %i4, %k : i32
  %pa = uop.index %A[%idx] : memref<16xf32, #uop.addrspace<global>>
  %a = uop.load %pa : !uop.ptr<f32, global>
  %aa = uop.mul %a, %a : f32
  %sum = uop.add %old, %aa : f32
  %upd = uop.store %pk, %sum : !uop.ptr<f32, local>
  %ek = uop.end %upd, %k : !uop.void
  %ad = uop.after %ai, %ek : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %pd = uop.index %ad[%c0] : memref<1xf32, #uop.addrspace<local>>
  %res = uop.load %pd : !uop.ptr<f32, local>
  %plus = uop.add %res, %half : f32
  %po = uop.index %O[%i] : memref<4xf32, #uop.addrspace<global>>
  %so = uop.store %po, %plus : !uop.ptr<f32, global>
  %ei = uop.end %so, %i : !uop.void
  %s = uop.sink(%ei : !uop.void)
  return %s : !uop.void
}
