4func.func @c225() -> i32 {
  %a0 = uop.const 46341 : i32
  %a1 = uop.const 2147483647 : i32
  %r = uop.add %a0, %a1 : i32
  return %r : i32
}
// cmpne i1->i1 [True, True] => false
