1func.func @c60() -> f32 {
  %a0 = uop.const 0 : i32
  %r = uop.cast %a0 : i32 to f32
  return %r : f32
}
// mul f32->f32 [65520.0, 9.99994610111476e-41] => 0x050B584A
