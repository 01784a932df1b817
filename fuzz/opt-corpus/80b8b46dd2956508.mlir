2func.func @c139() -> f32 {
  %a0 = uop.const 0x40600000 : f32
  %r = uop.exp2 %a0 : f32
  return %r : f32
}
// cmplt i1->i1 [True, False] => false
