4func.func @c27() -> f16 {
  %a0 = uop.const 0xDA40 : f16
  %a1 = uop.const 0x3C00 : f16
  %r = uop.add %a0, %a1 : f16
  return %r : f16
}
// max i32->i32 [2147483647, -7] => 2147483647
