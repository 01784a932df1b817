4func.func @c111() -> i1 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0xC166 : f16
  %r = uop.cmplt %a0, %a1 : f16
  return %r : i1
}
// recip f32->f32 [-inf] => 0x80000000
