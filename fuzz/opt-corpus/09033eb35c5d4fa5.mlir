1func.func @c66() -> f16 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0x7C00 : f16
  %r = uop.add %a0, %a1 : f16
  return %r : f16
}
// max i32->i32 [-100, 2] => 2
