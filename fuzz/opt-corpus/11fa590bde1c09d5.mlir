1func.func @c204() -> i32 {
  %a0 = uop.const -46341 : i32
  %a1 = uop.const -2147483648 : i32
  %r = uop.floordiv %a0, %a1 : i32
  return %r : i32
}
// cmplt i32->i1 [-1, 0] => true
