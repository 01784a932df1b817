2func.func @c235() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// add f16->f16 [200.0, 65504.0] => NOFOLD
