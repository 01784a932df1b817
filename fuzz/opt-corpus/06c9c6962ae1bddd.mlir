0func.func @floor_div_mod() -> (i32, i32, i32, i32, i32) {
  %m7 = uop.const -7 : i32
  %p7 = uop.const 7 : i32
  %p2 = uop.const 2 : i32
  %m2 = uop.const -2 : i32
  %min = uop.const -2147483648 : i32
  %m1 = uop.const -1 : i32
  %0 = uop.floordiv %m7, %p2 : i32
  %1 = uop.floormod %m7, %p2 : i32
  %2 = uop.floordiv %p7, %m2 : i32
  %3 = uop.floormod %p7, %m2 : i32
  // INT_MIN % -1 is 0 in the seed (only INT_MIN // -1 is refused)
  %4 = uop.floormod %min, %m1 : i32
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}
