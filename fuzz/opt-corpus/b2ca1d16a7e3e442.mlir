1func.func @c114() -> i1 {
  %a0 = uop.const 0 : i32
  %a1 = uop.const 2 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// cast f16->i1 [inf] => true
