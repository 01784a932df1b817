0// (x//c)*c + x%c -> x, also with an extra term.
func.func @recombine(%x: i32, %y: i32) -> (i32, i32, i32) {
  %c3 = uop.const 3 : i32
  %c4 = uop.const 4 : i32
  %d = uop.floordiv %x, %c4 : i32
  %q = uop.mul %d, %c4 : i32
  %m = uop.floormod %x, %c4 : i32
  %0 = uop.add %q, %m : i32           // -> x
  %e = uop.add %q, %y : i32
  %1 = uop.add %m, %e : i32           // x % 4 + ((x // 4) * 4 + y) -> x + y
  %m3 = uop.floormod %x, %c3 : i32
  %2 = uop.add %q, %m3 : i32          // must not: 3 != 4
  return %0, %1, %2 : i32, i32, i32
}
