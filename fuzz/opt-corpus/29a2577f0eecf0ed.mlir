5func.func @c88() -> f16 {
  %a0 = uop.const 0x7C00 : f16
  %r = uop.exp2 %a0 : f16
  return %r : f16
}
// cast f16->f16 [-2.69921875] => 0xC166
