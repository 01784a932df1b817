1func.func @c6() -> f16 {
  %a0 = uop.const 0 : i32
  %r = uop.cast %a0 : i32 to f16
  return %r : f16
}
// cmpne i32->i1 [-100, 13] => true
