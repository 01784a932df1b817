0func.func @c263() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.add %a0, %a1 : i1
  return %r : i1
}
// sin f32->f32 [70000.0] => 0xBF52CF32
