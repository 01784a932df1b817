0func.func @c47() -> f32 {
  %a0 = uop.const 0x40600000 : f32
  %a1 = uop.const 0xC02CCCCD : f32
  %r = uop.add %a0, %a1 : f32
  return %r : f32
}
// cmpne i1->i1 [False, False] => false
