1func.func @c210() -> f32 {
  %a0 = uop.const 0x7C00 : f16
  %r = uop.cast %a0 : f16 to f32
  return %r : f32
}
// max i1->i1 [False, False] => false
