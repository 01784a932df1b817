1func.func @c102() -> f16 {
  %a0 = uop.const 0xC166 : f16
  %r = uop.recip %a0 : f16
  return %r : f16
}
// cast f32->i32 [1024.0] => 1024
