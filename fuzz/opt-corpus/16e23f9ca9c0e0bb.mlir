1func.func @c312() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.cmpne %a0, %a1 : i1
  return %r : i1
}
// cast f32->i32 [65520.0] => 65520
