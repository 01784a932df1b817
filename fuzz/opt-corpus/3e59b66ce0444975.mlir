2func.func @c247() -> f32 {
  %a0 = uop.const 0x7E967699 : f32
  %a1 = uop.const 0xC02CCCCD : f32
  %r = uop.add %a0, %a1 : f32
  return %r : f32
}
// cast f16->i1 [-1.0] => true
