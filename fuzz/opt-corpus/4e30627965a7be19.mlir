0func.func @c65() -> f16 {
  %a0 = uop.const 0x0000 : f16
  %a1 = uop.const 0x0000 : f16
  %r = uop.max %a0, %a1 : f16
  return %r : f16
}
// add f16->f16 [inf, inf] => 0x7C00
