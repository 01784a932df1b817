4func.func @c309() -> f16 {
  %a0 = uop.const 0x8000 : f16
  %r = uop.log2 %a0 : f16
  return %r : f16
}
// cast f32->i32 [200.0] => 200
