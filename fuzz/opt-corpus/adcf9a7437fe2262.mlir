3func.func @c74() -> i1 {
  %a0 = uop.const 0x477FE000 : f32
  %a1 = uop.const 0x44800000 : f32
  %r = uop.cmpne %a0, %a1 : f32
  return %r : i1
}
// cmplt i32->i1 [0, -7] => false
