// What uop-symbolic would make of ../smt-counterexample.mlir if it had the
// seed's unguarded (x % c1) // c2 rule and the seed's max swap.
func.func @mod_div_negative(%x: i32) -> i32 {
  %c2 = uop.const 2 : i32
  %cm2 = uop.const -2 : i32
  %d = uop.floordiv %x, %c2 : i32
  %0 = uop.floormod %d, %cm2 : i32
  return %0 : i32
}
func.func @div_div(%x: i32) -> i32 {
  %c6 = uop.const 6 : i32
  %0 = uop.floordiv %x, %c6 : i32
  return %0 : i32
}
func.func @div_sum(%x: i32) -> i32 {
  return %x : i32
}
func.func @max_swap(%f: f32) -> f32 {
  %c1 = uop.const 1.0 : f32
  %0 = uop.max %f, %c1 : f32
  return %0 : f32
}
