2func.func @c91() -> f32 {
  %a0 = uop.const 0x7FC00000 : f32
  %r = uop.sqrt %a0 : f32
  return %r : f32
}
// cmplt f32->i1 [-inf, -200.0] => true
