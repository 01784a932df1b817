1func.func @c198() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const true
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// sin f16->f16 [200.0] => 0xBAFD
