1func.func @c12() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const true
  %r = uop.cmplt %a0, %a1 : i1
  return %r : i1
}
// exp2 f32->f32 [3000000000.0] => 0x7F800000
