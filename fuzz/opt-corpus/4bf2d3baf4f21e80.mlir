0func.func @c101() -> f32 {
  %a0 = uop.const 0x80000000 : f32
  %r = uop.recip %a0 : f32
  return %r : f32
}
// recip f16->f16 [-2.69921875] => 0xB5ED
