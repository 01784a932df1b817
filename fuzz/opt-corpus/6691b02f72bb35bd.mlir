5func.func @c178() -> f16 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0xFC00 : f16
  %r = uop.max %a0, %a1 : f16
  return %r : f16
}
// recip f16->f16 [nan] => 0x7E00
