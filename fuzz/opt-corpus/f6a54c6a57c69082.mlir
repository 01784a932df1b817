4func.func @c279() -> i32 {
  %a0 = uop.const -100 : i32
  %a1 = uop.const -46341 : i32
  %r = uop.floordiv %a0, %a1 : i32
  return %r : i32
}
// cast f16->i32 [0.5] => 0
