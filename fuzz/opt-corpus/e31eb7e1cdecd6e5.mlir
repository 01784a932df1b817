0func.func @c149() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// mul f16->f16 [inf, inf] => 0x7C00
