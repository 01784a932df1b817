2func.func @c79() -> f16 {
  %a0 = uop.const 0xDA40 : f16
  %a1 = uop.const 0x4000 : f16
  %r = uop.mul %a0, %a1 : f16
  return %r : f16
}
// cast f32->i32 [9.999999680285692e+37] => 0
