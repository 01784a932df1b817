5func.func @c202() -> f32 {
  %a0 = uop.const 0x477FF000 : f32
  %r = uop.sin %a0 : f32
  return %r : f32
}
// cmpne f32->i1 [0.0, 9.99994610111476e-41] => true
