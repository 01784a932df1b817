3func.func @c278() -> f32 {
  %a0 = uop.const 0x000116C2 : f32
  %a1 = uop.const 0xBF800000 : f32
  %r = uop.add %a0, %a1 : f32
  return %r : f32
}
// floordiv i32->i32 [-100, -46341] => 0
