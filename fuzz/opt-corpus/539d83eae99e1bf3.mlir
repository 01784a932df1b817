5func.func @with_args(%x: f32) -> !uop.void {
  %c0 = uop.const 0 : i32
  %o = uop.buffer 0 : memref<1xf32, #uop.addrspace<global>>
  %p = uop.index %o[%c0] : memref<1xf32, #uop.addrspace<global>>
  %s = uop.store %p, %x : !uop.ptr<f32, global>
  %k = uop.sink(%s : !uop.void)
  return %k : !uop.void
}
