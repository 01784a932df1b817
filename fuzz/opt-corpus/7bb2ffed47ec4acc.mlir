0// The seed hash-conses `x + y` and `y + x` as two nodes (its rules move only
// constants in commutative ops), so they stay two values and `a + b` is not
// `a + a -> a * 2`; equal operands in the same order are shared.
func.func @commutative_in_order(%x: i32, %y: i32) -> (i32, i32) {
  %a = uop.add %x, %y : i32
  %b = uop.add %y, %x : i32
  %s = uop.add %a, %b : i32
  %m = uop.mul %x, %y : i32
  %m2 = uop.mul %x, %y : i32
  %t = uop.mul %m, %m2 : i32
  return %s, %t : i32, i32
}
