0func.func @identities(%x: i32, %f: f32, %b: i1, %c: i1) -> (i32, f32, i32, f32, i32, i1, i32, i32, i32, f32, i1) {
  %z = uop.const 0 : i32
  %one = uop.const 1 : i32
  %zf = uop.const 0.0 : f32
  %onef = uop.const 1.0 : f32
  %false = uop.const false
  %0 = uop.add %x, %z : i32        // x + 0
  %1 = uop.add %zf, %f : f32       // 0.0 + x
  %2 = uop.mul %x, %one : i32      // x * 1
  %3 = uop.mul %f, %onef : f32     // x * 1.0
  %4 = uop.mul %x, %z : i32        // x * 0 (ints)
  %5 = uop.mul %b, %false : i1     // x * 0 (bool)
  %6 = uop.floordiv %x, %one : i32 // x // 1
  %7 = uop.floormod %x, %one : i32 // x % 1
  %8 = uop.max %x, %x : i32
  %9 = uop.where %c, %f, %f : f32
  %10 = uop.cmpne %b, %false : i1  // b != false
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i32, f32, i32, f32, i32, i1, i32, i32, i32, f32, i1
}
