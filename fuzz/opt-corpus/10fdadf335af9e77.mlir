3func.func @c110() -> f32 {
  %a0 = uop.const 0x3F000000 : f32
  %a1 = uop.const 0x477FE000 : f32
  %r = uop.mul %a0, %a1 : f32
  return %r : f32
}
// cmplt f16->i1 [inf, -2.69921875] => false
