1func.func @c126() -> f32 {
  %a0 = uop.const 0x4788B800 : f32
  %r = uop.recip %a0 : f32
  return %r : f32
}
// cast f16->f16 [0.0] => 0x0000
