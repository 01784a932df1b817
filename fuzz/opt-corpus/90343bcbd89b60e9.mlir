4func.func @c93() -> f32 {
  %a0 = uop.const 0x7E967699 : f32
  %r = uop.sin %a0 : f32
  return %r : f32
}
// cast f16->i32 [0.0010004043579101562] => 0
