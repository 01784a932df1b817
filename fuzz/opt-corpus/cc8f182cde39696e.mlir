0// The div/mod family.
func.func @div_mod(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32, i32, i32) {
  %c2 = uop.const 2 : i32
  %c3 = uop.const 3 : i32
  %c6 = uop.const 6 : i32
  %c7 = uop.const 7 : i32
  %m2 = uop.const -2 : i32
  %m6 = uop.const -6 : i32
  %d2 = uop.floordiv %x, %c2 : i32
  %0 = uop.floordiv %d2, %c3 : i32   // (x // 2) // 3 -> x // 6
  %dm2 = uop.floordiv %x, %m2 : i32
  %1 = uop.floordiv %dm2, %c3 : i32  // must not: a negative divisor
  %m6v = uop.floormod %x, %c6 : i32
  %2 = uop.floormod %m6v, %c3 : i32  // (x % 6) % 3 -> x % 3
  %m7v = uop.floormod %x, %c7 : i32
  %3 = uop.floormod %m7v, %c3 : i32  // must not: 3 does not divide 7
  %4 = uop.floordiv %m6v, %c3 : i32  // (x % 6) // 3 -> (x // 3) % 2
  %mm6 = uop.floormod %x, %m6 : i32
  %5 = uop.floordiv %mm6, %c3 : i32  // must not: c1 < 0 (the seed's rule is wrong there)
  return %0, %1, %2, %3, %4, %5, %5 : i32, i32, i32, i32, i32, i32, i32
}
