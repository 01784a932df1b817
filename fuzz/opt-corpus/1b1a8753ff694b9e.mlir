5func.func @c190() -> f16 {
  %a0 = uop.const 0x4300 : f16
  %r = uop.recip %a0 : f16
  return %r : f16
}
// cmpne i32->i1 [7, 3] => true
