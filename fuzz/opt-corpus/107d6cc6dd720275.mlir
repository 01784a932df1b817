2func.func @c271() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.add %a0, %a1 : i1
  return %r : i1
}
// sin f16->f16 [nan] => 0x7E00
