3func.func @c284() -> i1 {
  %a0 = uop.const 0x477FF000 : f32
  %a1 = uop.const 0x00000000 : f32
  %r = uop.cmpne %a0, %a1 : f32
  return %r : i1
}
// cmpne f32->i1 [9.99999993922529e-09, -0.0] => true
