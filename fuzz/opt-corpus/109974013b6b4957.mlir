4func.func @c237() -> f32 {
  %a0 = uop.const 0x3A83126F : f32
  %r = uop.exp2 %a0 : f32
  return %r : f32
}
// add f16->f16 [0.0, inf] => 0x7C00
