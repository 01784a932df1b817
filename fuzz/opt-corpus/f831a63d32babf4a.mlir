2func.func @buffer_no_addrspace() {
  %0 = uop.buffer 0 : memref<4xf32>
  return
}
