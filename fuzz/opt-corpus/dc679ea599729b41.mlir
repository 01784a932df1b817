4func.func @c51() -> f16 {
  %a0 = uop.const 0xC166 : f16
  %r = uop.log2 %a0 : f16
  return %r : f16
}
// cmplt f16->i1 [0.0010004043579101562, 1024.0] => true
