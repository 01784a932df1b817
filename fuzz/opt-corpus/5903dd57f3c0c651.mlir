0func.func @c239() -> i1 {
  %a0 = uop.const 0x1419 : f16
  %r = uop.cast %a0 : f16 to i1
  return %r : i1
}
// sin f16->f16 [inf] => 0x7E00
