4func.func @c303() -> i1 {
  %a0 = uop.const -46341 : i32
  %r = uop.cast %a0 : i32 to i1
  return %r : i1
}
// exp2 f32->f32 [65504.0] => 0x7F800000
