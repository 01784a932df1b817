4func.func @c147() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const true
  %r = uop.cmpne %a0, %a1 : i1
  return %r : i1
}
// cmplt f32->i1 [3000000000.0, 0.0010000000474974513] => false
