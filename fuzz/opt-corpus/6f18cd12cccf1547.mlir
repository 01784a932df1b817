1func.func @c240() -> f16 {
  %a0 = uop.const 0x7C00 : f16
  %r = uop.sin %a0 : f16
  return %r : f16
}
// mul i1->i1 [False, False] => false
