1func.func @c162() -> i1 {
  %a0 = uop.const 0x2E66 : f16
  %a1 = uop.const 0x7BFF : f16
  %r = uop.cmpne %a0, %a1 : f16
  return %r : i1
}
// floordiv i32->i32 [100, 7] => 14
