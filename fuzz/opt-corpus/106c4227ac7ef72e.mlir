4func.func @c135() -> i1 {
  %a0 = uop.const 2147483647 : i32
  %a1 = uop.const 46341 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// max i1->i1 [True, False] => true
