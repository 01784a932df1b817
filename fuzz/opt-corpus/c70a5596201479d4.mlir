5// test_w03 test_loop_invariant_code_is_hoisted: row = A[i*N] depends only on
// i, so it is loaded before the j loop opens.
func.func @hoist() -> !uop.void {
  %n = uop.const 8 : i32
  %A = uop.buffer 0 : memref<64xf32, #uop.addrspace<global>>
  %C = uop.buffer 1 : memref<64xf32, #uop.addrspace<global>>
  %i = uop.range %n idx 0 <loop>
  %j = uop.range %n idx 1 <loop>
  %iN = uop.mul %i, %n : i32
  %p0 = uop.index %A[%iN] : memref<64xf32, #uop.addrspace<global>>
  %row = uop.load %p0 : !uop.ptr<f32, global>
  %ij = uop.add %iN, %j : i32
  %p1 = uop.index %A[%ij] : memref<64xf32, #uop.addrspace<global>>
  %x = uop.load %p1 : !uop.ptr<f32, global>
  %s = uop.add %row, %x : f32
  %pc = uop.index %C[%ij] : memref<64xf32, #uop.addrspace<global>>
  %st = uop.store %pc, %s : !uop.ptr<f32, global>
  %e = uop.end %st, %i, %j : !uop.void
  %k = uop.sink(%e : !uop.void)
  return %k : !uop.void
}
