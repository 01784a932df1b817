2func.func @c169() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const true
  %r = uop.cmpne %a0, %a1 : i1
  return %r : i1
}
// add f16->f16 [0.0, inf] => 0x7C00
