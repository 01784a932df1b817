2func.func @c97() -> f32 {
  %a0 = uop.const 0x3E4CCCCD : f32
  %r = uop.sin %a0 : f32
  return %r : f32
}
// mul i32->i32 [-46341, 3] => -139023
