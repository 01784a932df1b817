2func.func @c25() -> f16 {
  %a0 = uop.const 0x0000 : f16
  %a1 = uop.const 0x0000 : f16
  %r = uop.mul %a0, %a1 : f16
  return %r : f16
}
// sin f32->f32 [2.0] => 0x3F68C7B7
