0// What C leaves undefined is never folded.
func.func @undefined_left_for_run_time() -> (i32, i32, i32, i32, i32) {
  %x = uop.const 5 : i32
  %zero = uop.const 0 : i32
  %min = uop.const -2147483648 : i32
  %m1 = uop.const -1 : i32
  %inf = uop.const 0x7F800000 : f32
  %nan = uop.const 0x7FC00000 : f32
  %0 = uop.floordiv %x, %zero : i32
  %1 = uop.floormod %x, %zero : i32
  %2 = uop.floordiv %min, %m1 : i32
  %3 = uop.cast %inf : f32 to i32
  %4 = uop.cast %nan : f32 to i32
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}
