5func.func @c4() -> f32 {
  %a0 = uop.const 0xBF800000 : f32
  %r = uop.recip %a0 : f32
  return %r : f32
}
// floordiv i32->i32 [0, -46341] => 0
