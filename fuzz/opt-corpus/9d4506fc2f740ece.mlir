2func.func @c319() -> i32 {
  %a0 = uop.const 0xBC00 : f16
  %r = uop.cast %a0 : f16 to i32
  return %r : i32
}
// cmpne i1->i1 [True, True] => false
