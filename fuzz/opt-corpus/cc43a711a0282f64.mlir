4func.func @c9() -> f32 {
  %a0 = uop.const 0x4B800000 : f32
  %r = uop.sqrt %a0 : f32
  return %r : f32
}
// floordiv i32->i32 [-2147483648, 2] => -1073741824
