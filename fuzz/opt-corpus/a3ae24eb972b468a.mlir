4func.func @c183() -> i32 {
  %a0 = uop.const 13 : i32
  %a1 = uop.const 2147483647 : i32
  %r = uop.floormod %a0, %a1 : i32
  return %r : i32
}
// cast i32->i1 [13] => true
