4func.func @c15() -> i1 {
  %a0 = uop.const 2 : i32
  %a1 = uop.const 3 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// add f16->f16 [0.0, -inf] => 0xFC00
