4func.func @c273() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.cmplt %a0, %a1 : i1
  return %r : i1
}
// mul f32->f32 [2.0, 3000000000.0] => 0x4FB2D05E
