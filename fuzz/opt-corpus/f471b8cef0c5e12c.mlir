0func.func @c41() -> f32 {
  %a0 = uop.const 0x80000000 : f32
  %a1 = uop.const 0x477FF000 : f32
  %r = uop.mul %a0, %a1 : f32
  return %r : f32
}
// mul i1->i1 [True, False] => false
