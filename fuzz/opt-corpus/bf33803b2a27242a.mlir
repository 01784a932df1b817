1func.func @c264() -> f32 {
  %a0 = uop.const 0x4788B800 : f32
  %r = uop.sin %a0 : f32
  return %r : f32
}
// log2 f16->f16 [inf] => 0x7C00
