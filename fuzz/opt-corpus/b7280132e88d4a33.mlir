2func.func @c301() -> i32 {
  %a0 = uop.const -1 : i32
  %a1 = uop.const -2 : i32
  %r = uop.floormod %a0, %a1 : i32
  return %r : i32
}
// floordiv i32->i32 [-46341, 100] => -464
