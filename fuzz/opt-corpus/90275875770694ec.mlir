2func.func @buffer_not_global() {
  %0 = uop.buffer 0 : memref<4xf32, #uop.addrspace<local>>
  return
}
