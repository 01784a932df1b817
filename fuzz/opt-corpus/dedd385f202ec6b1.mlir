5// Sibling loops: the second loop reads (through an END and AFTER) what the
// first wrote, so the first runs first even though its idx is larger.
func.func @siblings() -> !uop.void {
  %c4 = uop.const 4 : i32
  %one = uop.const 1.0 : f32
  %out = uop.buffer 0 : memref<4xf32, #uop.addrspace<global>>
  %tmp = uop.alloc 0 : memref<4xf32, #uop.addrspace<local>>
  %w = uop.range %c4 idx 5 <loop>
  %pw = uop.index %tmp[%w] : memref<4xf32, #uop.addrspace<local>>
  %sw = uop.store %pw, %one : !uop.ptr<f32, local>
  %ew = uop.end %sw, %w : !uop.void
  %r = uop.range %c4 idx 0 <loop>
  %tr = uop.after %tmp, %ew : memref<4xf32, #uop.addrspace<local>>, !uop.void
  %pr = uop.index %tr[%r] : memref<4xf32, #uop.addrspace<local>>
  %v = uop.load %pr : !uop.ptr<f32, local>
  %po = uop.index %out[%r] : memref<4xf32, #uop.addrspace<global>>
  %so = uop.store %po, %v : !uop.ptr<f32, global>
  %er = uop.end %so, %r : !uop.void
  %k = uop.sink(%er : !uop.void)
  return %k : !uop.void
}
