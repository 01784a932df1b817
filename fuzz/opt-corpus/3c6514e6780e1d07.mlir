5func.func @c256() -> f32 {
  %a0 = uop.const 0x477FF000 : f32
  %a1 = uop.const 0x3F000000 : f32
  %r = uop.mul %a0, %a1 : f32
  return %r : f32
}
// max i1->i1 [False, False] => false
