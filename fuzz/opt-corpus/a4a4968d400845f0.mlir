4// STORE needs memory.
func.func @store_value(%x: f32, %v: f32) {
  %0 = uop.store %x, %v : f32, f32
  return
}
