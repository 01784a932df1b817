4func.func @c63() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.cmpne %a0, %a1 : i1
  return %r : i1
}
// exp2 f16->f16 [inf] => 0x7C00
