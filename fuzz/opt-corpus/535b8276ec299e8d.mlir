4//
// uop's integer and bool ops implement InferIntRangeInterface with the
// seed's bounds, so upstream int-range-optimizations uses them.

func.func @ranges(%x: i32) -> (i1, i1, i1, i1, i1) {
  %c4 = uop.const 4 : i32
  %c8 = uop.const 8 : i32
  %c32 = uop.const 32 : i32
  %c3 = uop.const 3 : i32
  %i = uop.range %c4 idx 0 <loop>
  %j = uop.range %c8 idx 1 <loop>
  %i8 = uop.mul %i, %c8 : i32
  %flat = uop.add %i8, %j : i32
  %0 = uop.cmplt %flat, %c32 : i32    // flat in [0, 31]
  %1 = uop.cmplt %c32, %flat : i32    // 32 < flat: never
  %m = uop.floormod %x, %c8 : i32     // floor mod by 8 is in [0, 8)
  %2 = uop.cmplt %m, %c8 : i32
  %3 = uop.cmplt %i, %c3 : i32        // i may be 3: unknown
  %b = uop.cmpne %i, %c4 : i32        // i != 4 always
  return %0, %1, %2, %3, %b : i1, i1, i1, i1, i1
}
