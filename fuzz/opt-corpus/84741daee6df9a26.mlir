0func.func @c209() -> f32 {
  %a0 = uop.const 0x00000000 : f32
  %a1 = uop.const 0x40000000 : f32
  %r = uop.max %a0, %a1 : f32
  return %r : f32
}
// cast f16->f32 [inf] => 0x7F800000
