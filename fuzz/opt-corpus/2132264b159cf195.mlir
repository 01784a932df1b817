4func.func @c213() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// cast f32->i32 [0.0010000000474974513] => 0
