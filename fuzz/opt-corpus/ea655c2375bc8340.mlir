2// ALLOC is flat.
func.func @alloc_not_flat() {
  %0 = uop.alloc 0 : memref<2x2xf32, #uop.addrspace<local>>
  return
}
