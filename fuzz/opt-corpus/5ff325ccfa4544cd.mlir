1func.func @c216() -> i32 {
  %a0 = uop.const 0x3F800000 : f32
  %r = uop.cast %a0 : f32 to i32
  return %r : i32
}
// recip f32->f32 [-9.999999680285692e+37] => 0x806CE3EF
