1func.func @c282() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// cmpne f32->i1 [0.0010000000474974513, 1.0] => true
