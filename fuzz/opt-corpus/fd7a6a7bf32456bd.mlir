1func.func @c222() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const true
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// cmplt f16->i1 [65504.0, inf] => true
