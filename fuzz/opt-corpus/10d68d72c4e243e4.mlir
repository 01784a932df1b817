0// Comparisons against constants.
func.func @compares(%x: i32) -> (i1, i1, i1, i1) {
  %c3 = uop.const 3 : i32
  %c4 = uop.const 4 : i32
  %c10 = uop.const 10 : i32
  %m4 = uop.const -4 : i32
  %min = uop.const -2147483648 : i32
  %max = uop.const 2147483647 : i32
  %a = uop.add %x, %c3 : i32
  %0 = uop.cmplt %a, %c10 : i32     // (x + 3) < 10 -> x < 7
  %m = uop.mul %x, %c4 : i32
  %1 = uop.cmplt %m, %c10 : i32     // x*4 < 10 -> x < ceil(10/4) = 3
  %n = uop.mul %x, %m4 : i32
  %2 = uop.cmplt %n, %c10 : i32     // must not: c1 < 0
  %b = uop.add %x, %min : i32
  %3 = uop.cmplt %b, %max : i32     // must not: c2 - c1 overflows i32
  return %0, %1, %2, %3 : i1, i1, i1, i1
}
