1func.func @c0() -> f32 {
  %a0 = uop.const 0x322BCC77 : f32
  %r = uop.recip %a0 : f32
  return %r : f32
}
// cmplt f16->i1 [inf, inf] => false
