2func.func @sqrt_int(%x: i32) {
  %0 = uop.sqrt %x : i32
  return
}
