0func.func @c179() -> f16 {
  %a0 = uop.const 0x7E00 : f16
  %r = uop.recip %a0 : f16
  return %r : f16
}
// cmpne i32->i1 [65536, 65536] => false
