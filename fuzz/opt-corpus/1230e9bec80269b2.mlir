5// test_w03 test_missing_end_is_an_error: a RANGE that is never closed.
func.func @missing_end() -> !uop.void {
  %c4 = uop.const 4 : i32
  %one = uop.const 1.0 : f32
  %out = uop.buffer 0 : memref<4xf32, #uop.addrspace<global>>
  %r = uop.range %c4 idx 0 <loop>
  %p = uop.index %out[%r] : memref<4xf32, #uop.addrspace<global>>
  %s = uop.store %p, %one : !uop.ptr<f32, global>
  %k = uop.sink(%s : !uop.void)
  return %k : !uop.void
}
