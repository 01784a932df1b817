0func.func @combine_terms(%x: i32, %y: i32) -> (i32, i32, i32) {
  %c3 = uop.const 3 : i32
  %c4 = uop.const 4 : i32
  %x3 = uop.mul %x, %c3 : i32
  %x4 = uop.mul %x, %c4 : i32
  %0 = uop.add %x3, %x4 : i32      // x*3 + x*4 -> x*7
  %1 = uop.add %x, %x3 : i32       // x + x*3 -> x*4
  %y4 = uop.mul %y, %c4 : i32
  %2 = uop.add %x3, %y4 : i32      // must not: different x
  return %0, %1, %2 : i32, i32, i32
}
