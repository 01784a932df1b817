2func.func @c73() -> f16 {
  %a0 = uop.const 0x0000 : f16
  %a1 = uop.const 0x7C00 : f16
  %r = uop.max %a0, %a1 : f16
  return %r : f16
}
// cmpne f32->i1 [65504.0, 1024.0] => true
