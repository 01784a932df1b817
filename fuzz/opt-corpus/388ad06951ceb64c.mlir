0func.func @c251() -> f16 {
  %a0 = uop.const 0x8000 : f16
  %r = uop.sin %a0 : f16
  return %r : f16
}
// max i32->i32 [7, 100] => 100
