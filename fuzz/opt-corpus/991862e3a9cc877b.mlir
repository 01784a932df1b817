4func.func @c87() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const true
  %r = uop.add %a0, %a1 : i1
  return %r : i1
}
// exp2 f16->f16 [inf] => 0x7C00
