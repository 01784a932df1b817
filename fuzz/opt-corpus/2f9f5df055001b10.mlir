1func.func @c306() -> f32 {
  %a0 = uop.const 0x3DCCCCCD : f32
  %a1 = uop.const 0x3F000000 : f32
  %r = uop.max %a0, %a1 : f32
  return %r : f32
}
// mul i1->i1 [True, False] => false
