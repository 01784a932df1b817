3func.func @c236() -> f16 {
  %a0 = uop.const 0x5A40 : f16
  %a1 = uop.const 0x7BFF : f16
  %r = uop.add %a0, %a1 : f16
  return %r : f16
}
// exp2 f32->f32 [0.0010000000474974513] => 0x3F8016B9
