2func.func @c187() -> f32 {
  %a0 = uop.const 0x3A83126F : f32
  %a1 = uop.const 0x477FF000 : f32
  %r = uop.mul %a0, %a1 : f32
  return %r : f32
}
// floormod i32->i32 [100, 1] => 0
