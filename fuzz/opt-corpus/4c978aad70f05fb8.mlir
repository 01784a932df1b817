4// RANGE end is i32.
func.func @range_end(%n: f32) {
  %0 = uop.range %n idx 0 <loop> : f32
  return
}
