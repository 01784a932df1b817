2func.func @c61() -> f32 {
  %a0 = uop.const 0x477FF000 : f32
  %a1 = uop.const 0x000116C2 : f32
  %r = uop.mul %a0, %a1 : f32
  return %r : f32
}
// floordiv i32->i32 [-7, 3] => -3
