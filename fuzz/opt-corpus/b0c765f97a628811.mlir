4func.func @c141() -> i1 {
  %a0 = uop.const 0x3F000000 : f32
  %a1 = uop.const 0x3DCCCCCD : f32
  %r = uop.cmplt %a0, %a1 : f32
  return %r : i1
}
// add f16->f16 [inf, 0.0010004043579101562] => 0x7C00
