5func.func @c118() -> i1 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0x7C00 : f16
  %r = uop.cmpne %a0, %a1 : f16
  return %r : i1
}
// mul i1->i1 [False, False] => false
