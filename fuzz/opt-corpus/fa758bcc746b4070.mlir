5func.func @shaped_buffer() -> !uop.void {
  %c0 = uop.const 0 : i32
  %b = uop.buffer 0 : tensor<4xf32>
  %o = uop.buffer 1 : memref<1xf32, #uop.addrspace<global>>
  %v = uop.index %b[%c0] : tensor<4xf32>
  %p = uop.index %o[%c0] : memref<1xf32, #uop.addrspace<global>>
  %s = uop.store %p, %v : !uop.ptr<f32, global>
  %k = uop.sink(%s : !uop.void)
  return %k : !uop.void
}
