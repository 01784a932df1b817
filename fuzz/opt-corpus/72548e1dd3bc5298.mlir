3func.func @c308() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.cmplt %a0, %a1 : i1
  return %r : i1
}
// log2 f16->f16 [-0.0] => 0xFC00
