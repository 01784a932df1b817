4func.func @c171() -> f16 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0x8000 : f16
  %r = uop.max %a0, %a1 : f16
  return %r : f16
}
// sqrt f16->f16 [-2.69921875] => 0x7E00
