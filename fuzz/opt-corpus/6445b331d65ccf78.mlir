2func.func @c1() -> i1 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0x7C00 : f16
  %r = uop.cmplt %a0, %a1 : f16
  return %r : i1
}
// add i1->i1 [True, False] => true
