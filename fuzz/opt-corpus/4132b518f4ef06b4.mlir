5func.func @alloc_global() {
  %0 = uop.alloc 0 : memref<4xf32, #uop.addrspace<global>>
  return
}
