3func.func @c8() -> f32 {
  %a0 = uop.const -100 : i32
  %r = uop.cast %a0 : i32 to f32
  return %r : f32
}
// sqrt f32->f32 [16777216.0] => 0x45800000
