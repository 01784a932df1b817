2func.func @alloc_strided() {
  %0 = uop.alloc 0 : memref<4xf32, strided<[2]>, #uop.addrspace<local>>
  return
}
