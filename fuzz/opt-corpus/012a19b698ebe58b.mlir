1func.func @c246() -> i32 {
  %a0 = uop.const -46341 : i32
  %a1 = uop.const 46341 : i32
  %r = uop.floordiv %a0, %a1 : i32
  return %r : i32
}
// add f32->f32 [9.999999680285692e+37, -2.700000047683716] => 0x7E967699
