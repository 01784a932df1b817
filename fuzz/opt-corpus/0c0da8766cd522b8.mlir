5func.func @c268() -> f16 {
  %a0 = uop.const 0x3266 : f16
  %a1 = uop.const 0xFC00 : f16
  %r = uop.max %a0, %a1 : f16
  return %r : f16
}
// max i32->i32 [100, -46341] => 100
