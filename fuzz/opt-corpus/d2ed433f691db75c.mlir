0func.func @c227() -> f16 {
  %a0 = uop.const 0x1419 : f16
  %a1 = uop.const 0x0000 : f16
  %r = uop.mul %a0, %a1 : f16
  return %r : f16
}
// cmpne f32->i1 [9.99994610111476e-41, 65504.0] => true
