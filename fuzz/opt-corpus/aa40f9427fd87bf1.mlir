0func.func @c245() -> f32 {
  %a0 = uop.const -7 : i32
  %r = uop.cast %a0 : i32 to f32
  return %r : f32
}
// floordiv i32->i32 [-46341, 46341] => -1
