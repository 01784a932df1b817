2func.func @c43() -> i1 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0xDA40 : f16
  %r = uop.cmplt %a0, %a1 : f16
  return %r : i1
}
// max f32->f32 [-200.0, 3000000000.0] => 0x4F32D05E
