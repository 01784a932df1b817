1// STORE of a dtype into memory of another.
func.func @store_dtype(%i: i32, %v: i32) {
  %b = uop.buffer 0 : memref<4xf32, #uop.addrspace<global>>
  %p = uop.index %b[%i] : memref<4xf32, #uop.addrspace<global>>
  %0 = uop.store %p, %v : !uop.ptr<f32, global>, i32
  return
}
