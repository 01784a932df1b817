0// Distribution of constants over sums; constants move outward.
func.func @distribute(%x: i32, %y: i32, %f: f32, %g: f32) -> (i32, i32, f32, i32, i32) {
  %c1 = uop.const 1 : i32
  %c3 = uop.const 3 : i32
  %f3 = uop.const 3.0 : f32
  %a = uop.add %x, %c1 : i32
  %0 = uop.mul %a, %c3 : i32       // (x + 1) * 3 -> x*3 + 3
  %s = uop.add %x, %y : i32
  %1 = uop.mul %s, %c3 : i32       // (x + y) * 3 -> x*3 + y*3
  %fs = uop.add %f, %g : f32
  %2 = uop.mul %fs, %f3 : f32      // must not: floats
  %3 = uop.add %a, %y : i32        // (x + 1) + y -> (x + y) + 1
  %4 = uop.add %c1, %c1 : i32
  %5 = uop.floordiv %4, %4 : i32
  return %0, %1, %2, %3, %5 : i32, i32, f32, i32, i32
}
