5func.func @c286() -> f32 {
  %a0 = uop.const 0x3DCCCCCD : f32
  %r = uop.sin %a0 : f32
  return %r : f32
}
// cmpne i32->i1 [-100, 2] => true
