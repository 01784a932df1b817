1func.func @c30() -> f32 {
  %a0 = uop.const 0x3F800000 : f32
  %a1 = uop.const 0x40000000 : f32
  %r = uop.mul %a0, %a1 : f32
  return %r : f32
}
// log2 f16->f16 [2.0] => 0x3C00
