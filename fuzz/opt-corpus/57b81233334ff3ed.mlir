3func.func @c194() -> f16 {
  %a0 = uop.const 0x4300 : f16
  %r = uop.sqrt %a0 : f16
  return %r : f16
}
// mul i32->i32 [2147483647, 100] => -100
