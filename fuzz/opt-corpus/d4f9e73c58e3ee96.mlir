1func.func @c42() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// cmplt f16->i1 [inf, -200.0] => false
