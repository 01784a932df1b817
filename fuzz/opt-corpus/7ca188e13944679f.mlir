5func.func @two_types_one_slot() -> !uop.void {
  %c0 = uop.const 0 : i32
  %one = uop.const 1 : i32
  %a = uop.buffer 0 : memref<4xf32, #uop.addrspace<global>>
  %b = uop.buffer 0 : memref<4xi32, #uop.addrspace<global>>
  %pa = uop.index %a[%c0] : memref<4xf32, #uop.addrspace<global>>
  %v = uop.load %pa : !uop.ptr<f32, global>
  %pb = uop.index %b[%c0] : memref<4xi32, #uop.addrspace<global>>
  %s = uop.store %pb, %one : !uop.ptr<i32, global>
  %k = uop.sink(%s, %v : !uop.void, f32)
  return %k : !uop.void
}
