4func.func @c57() -> i32 {
  %a0 = uop.const 0x7C00 : f16
  %r = uop.cast %a0 : f16 to i32
  return %r : i32
}
// max i1->i1 [True, True] => true
