0// Div/mod by bounds, comparisons against constants, bounds that pin a value
// (test_w01 test_symbolic_ranges).
func.func @ranges() -> (i32, i32, i32, i32, i32, i1, i1, i1, i32, i32) {
  %c4 = uop.const 4 : i32
  %c8 = uop.const 8 : i32
  %c9 = uop.const 9 : i32
  %c0 = uop.const 0 : i32
  %c3 = uop.const 3 : i32
  %i = uop.range %c4 idx 0 <loop>
  %j = uop.range %c8 idx 1 <loop>
  %k = uop.range %c9 idx 2 <loop>
  %i8 = uop.mul %i, %c8 : i32
  %flat = uop.add %i8, %j : i32
  %0 = uop.floordiv %flat, %c8 : i32  // -> i
  %1 = uop.floormod %flat, %c8 : i32  // -> j
  %q8 = uop.mul %0, %c8 : i32
  %2 = uop.add %q8, %1 : i32          // (flat // 8) * 8 + flat % 8 -> flat
  %3 = uop.floordiv %j, %c8 : i32     // j in [0, 8): 0
  %4 = uop.floordiv %k, %c8 : i32     // must not: k may be 8
  %5 = uop.cmplt %i, %c4 : i32        // true
  %6 = uop.cmplt %i, %c0 : i32        // false
  %7 = uop.cmplt %i, %c3 : i32        // must not: i may be 3
  %8 = uop.floormod %k, %c9 : i32     // k in [0, 9): k
  %9 = uop.floormod %k, %c8 : i32     // must not
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i32, i32, i32, i32, i32, i1, i1, i1, i32, i32
}
