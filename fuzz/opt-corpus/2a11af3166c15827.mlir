2func.func @c109() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// mul f32->f32 [0.5, 65504.0] => 0x46FFE000
