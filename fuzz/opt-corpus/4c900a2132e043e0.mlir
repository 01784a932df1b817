2func.func @c199() -> f16 {
  %a0 = uop.const 0x5A40 : f16
  %r = uop.sin %a0 : f16
  return %r : f16
}
// cmpne i32->i1 [65536, -2147483648] => true
