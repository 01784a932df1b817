0// More cases where a rule must not fire.
func.func @must_not(%x: i32, %y: i32, %f: f32) -> (f32, i32, i32) {
  %f2 = uop.const 2.0 : f32
  %f3 = uop.const 3.0 : f32
  %c3 = uop.const 3 : i32
  %c4 = uop.const 4 : i32
  %fm = uop.mul %f, %f2 : f32
  %0 = uop.mul %fm, %f3 : f32        // (x * 2.0) * 3.0 stays
  %x3 = uop.mul %x, %c3 : i32
  %s = uop.add %x3, %y : i32
  %1 = uop.floormod %s, %c4 : i32    // (x*3 + y) % 4: no term is a multiple of 4
  %d = uop.floordiv %x, %c4 : i32
  %q = uop.mul %d, %c4 : i32
  %qy = uop.add %q, %y : i32
  %m3 = uop.floormod %x, %c3 : i32
  %2 = uop.add %qy, %m3 : i32        // ((x//4)*4 + y) + x%3 stays
  return %0, %1, %2 : f32, i32, i32
}
