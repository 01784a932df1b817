0// _div_sum: (a*c + b) // c -> a + b // c, (a*c + b) % c -> b % c.
func.func @div_sum(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32) {
  %c3 = uop.const 3 : i32
  %c4 = uop.const 4 : i32
  %c6 = uop.const 6 : i32
  %c2 = uop.const 2 : i32
  %x4 = uop.mul %x, %c4 : i32
  %0 = uop.floordiv %x4, %c4 : i32   // (x*4) // 4 -> x
  %s = uop.add %x4, %y : i32
  %1 = uop.floordiv %s, %c4 : i32    // (x*4 + y) // 4 -> x + y // 4
  %2 = uop.floormod %s, %c4 : i32    // (x*4 + y) % 4 -> y % 4
  %x3 = uop.mul %x, %c3 : i32
  %t = uop.add %x3, %y : i32
  %3 = uop.floordiv %t, %c4 : i32    // must not: no term is a multiple of 4
  %x6 = uop.mul %x, %c6 : i32
  %u = uop.add %x6, %c4 : i32
  %4 = uop.floormod %u, %c2 : i32    // (x*6 + 4) % 2 -> 0
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}
