0func.func @buffer_dynamic() {
  %0 = uop.buffer 0 : memref<?xf32, #uop.addrspace<global>>
  return
}
