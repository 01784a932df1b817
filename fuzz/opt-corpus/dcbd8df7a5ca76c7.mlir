1func.func @c228() -> i1 {
  %a0 = uop.const 0x000116C2 : f32
  %a1 = uop.const 0x477FE000 : f32
  %r = uop.cmpne %a0, %a1 : f32
  return %r : i1
}
// max i32->i32 [-2, 100] => 100
