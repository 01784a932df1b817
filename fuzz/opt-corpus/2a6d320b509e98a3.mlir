2func.func @c127() -> f16 {
  %a0 = uop.const 0x0000 : f16
  %r = uop.cast %a0 : f16 to f16
  return %r : f16
}
// mul f16->f16 [-2.69921875, -inf] => 0x7C00
