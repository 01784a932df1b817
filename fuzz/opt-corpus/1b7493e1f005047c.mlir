2func.func @c193() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.cmplt %a0, %a1 : i1
  return %r : i1
}
// sqrt f16->f16 [3.5] => 0x3F7C
