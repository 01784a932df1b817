3func.func @sin_int(%x: i32) {
  %0 = uop.sin %x : i32
  return
}
