3func.func @c92() -> i1 {
  %a0 = uop.const 0xFF800000 : f32
  %a1 = uop.const 0xC3480000 : f32
  %r = uop.cmplt %a0, %a1 : f32
  return %r : i1
}
// sin f32->f32 [9.999999680285692e+37] => 0x3F7D39E2
