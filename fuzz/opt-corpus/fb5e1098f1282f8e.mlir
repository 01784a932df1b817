2func.func @c115() -> i1 {
  %a0 = uop.const 0x7C00 : f16
  %r = uop.cast %a0 : f16 to i1
  return %r : i1
}
// cmpne i32->i1 [-2147483648, 100] => true
