3func.func @c50() -> f32 {
  %a0 = uop.const 0x477FE000 : f32
  %a1 = uop.const 0x40600000 : f32
  %r = uop.max %a0, %a1 : f32
  return %r : f32
}
// log2 f16->f16 [-2.69921875] => 0x7E00
