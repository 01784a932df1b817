2func.func @c19() -> f32 {
  %a0 = uop.const 0x477FE000 : f32
  %r = uop.sqrt %a0 : f32
  return %r : f32
}
// cast f16->f16 [inf] => 0x7C00
