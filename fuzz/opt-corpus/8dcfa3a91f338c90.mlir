2func.func @c31() -> f16 {
  %a0 = uop.const 0x4000 : f16
  %r = uop.log2 %a0 : f16
  return %r : f16
}
// cmplt f16->i1 [inf, -inf] => false
