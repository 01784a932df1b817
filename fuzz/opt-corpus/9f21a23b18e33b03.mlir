0func.func @c5() -> i32 {
  %a0 = uop.const 0 : i32
  %a1 = uop.const -46341 : i32
  %r = uop.floordiv %a0, %a1 : i32
  return %r : i32
}
// cast i32->f16 [0] => 0x0000
