4// A RANGE in a shaped program has no rule (the seed raises too).
func.func @range_in_l1() -> i32 {
  %c4 = uop.const 4 : i32
  %r = uop.range %c4 idx 0 <loop>
  return %r : i32
}
