0func.func @c23() -> i1 {
  %a0 = uop.const 46341 : i32
  %a1 = uop.const 7 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// cmpne f16->i1 [0.0, 65504.0] => true
