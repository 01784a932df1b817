5// FLOORDIV / FLOORMOD are integer only.
func.func @floordiv_float(%a: f32, %b: f32) {
  %0 = uop.floordiv %a, %b : f32
  return
}
