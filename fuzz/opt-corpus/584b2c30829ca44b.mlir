2func.func @c295() -> f16 {
  %a0 = uop.const 0x3800 : f16
  %a1 = uop.const 0xC166 : f16
  %r = uop.max %a0, %a1 : f16
  return %r : f16
}
// cmplt f16->i1 [-2.69921875, inf] => true
