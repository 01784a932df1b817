4func.func @c99() -> f32 {
  %a0 = uop.const -46341 : i32
  %r = uop.cast %a0 : i32 to f32
  return %r : f32
}
// cmplt i32->i1 [-46341, 46341] => true
