5func.func @c172() -> f16 {
  %a0 = uop.const 0xC166 : f16
  %r = uop.sqrt %a0 : f16
  return %r : f16
}
// cmplt i32->i1 [-2147483648, 2] => true
