0func.func @c161() -> f32 {
  %a0 = uop.const 0x322BCC77 : f32
  %a1 = uop.const 0x477FF000 : f32
  %r = uop.mul %a0, %a1 : f32
  return %r : f32
}
// cmpne f16->i1 [0.0999755859375, 65504.0] => true
