0// Integer-only reassociation.
func.func @reassociate(%x: i32, %f: f32) -> (i32, f32, i32, i32) {
  %c3 = uop.const 3 : i32
  %c4 = uop.const 4 : i32
  %c5 = uop.const 5 : i32
  %c65536 = uop.const 65536 : i32
  %f1 = uop.const 1.0 : f32
  %f2 = uop.const 2.0 : f32
  %a = uop.add %x, %c3 : i32
  %0 = uop.add %a, %c4 : i32       // (x + 3) + 4 -> x + 7
  %fa = uop.add %f, %f1 : f32
  %1 = uop.add %fa, %f2 : f32      // must not: (x + 1.0) + 2.0 stays
  %m = uop.mul %x, %c4 : i32
  %2 = uop.mul %m, %c5 : i32       // (x * 4) * 5 -> x * 20
  %w = uop.mul %x, %c65536 : i32
  %3 = uop.mul %w, %c65536 : i32   // 65536 * 65536 wraps to 0
  return %0, %1, %2, %3 : i32, f32, i32, i32
}
