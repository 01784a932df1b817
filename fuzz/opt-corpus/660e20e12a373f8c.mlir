4func.func @c315() -> i1 {
  %a0 = uop.const 0x4000 : f16
  %a1 = uop.const 0xDA40 : f16
  %r = uop.cmpne %a0, %a1 : f16
  return %r : i1
}
// cast f32->f16 [-2.700000047683716] => 0xC166
