3func.func @c134() -> i1 {
  %a0 = uop.const 46341 : i32
  %a1 = uop.const -100 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// cmpne i32->i1 [2147483647, 46341] => true
