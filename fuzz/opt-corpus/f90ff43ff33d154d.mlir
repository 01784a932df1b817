0func.func @c269() -> i32 {
  %a0 = uop.const 100 : i32
  %a1 = uop.const -46341 : i32
  %r = uop.max %a0, %a1 : i32
  return %r : i32
}
// cast i32->f16 [100] => 0x5640
