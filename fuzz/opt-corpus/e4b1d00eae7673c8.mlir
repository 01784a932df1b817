4func.func @c39() -> i32 {
  %a0 = uop.const 0x80000000 : f32
  %r = uop.cast %a0 : f32 to i32
  return %r : i32
}
// cmplt i32->i1 [-2147483648, 3] => true
