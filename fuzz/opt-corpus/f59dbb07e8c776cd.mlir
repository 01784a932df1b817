1func.func @c144() -> f32 {
  %a0 = uop.const 0xFF800000 : f32
  %a1 = uop.const 0xBF800000 : f32
  %r = uop.mul %a0, %a1 : f32
  return %r : f32
}
// floordiv i32->i32 [0, 7] => 0
