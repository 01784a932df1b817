0func.func @c125() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// recip f32->f32 [70000.0] => 0x376FACAD
