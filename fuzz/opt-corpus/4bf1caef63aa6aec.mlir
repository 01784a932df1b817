4// Unary ops need a float.
func.func @recip_int(%x: i32) {
  %0 = uop.recip %x : i32
  return
}
