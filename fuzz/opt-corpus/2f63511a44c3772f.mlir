1func.func @c48() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.cmpne %a0, %a1 : i1
  return %r : i1
}
// mul f32->f32 [-0.0, 1.0] => 0x80000000
