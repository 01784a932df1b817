0// Equal constants are one constant; dead ops go.
func.func @constants_and_dead(%x: i32) -> (i32, i32) {
  %c3 = uop.const 3 : i32
  %d3 = uop.const 3 : i32
  %dead = uop.add %x, %d3 : i32
  %a = uop.mul %x, %c3 : i32
  %b = uop.mul %x, %d3 : i32
  return %a, %b : i32, i32
}
