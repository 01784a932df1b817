5func.func @c82() -> i32 {
  %a0 = uop.const 7 : i32
  %a1 = uop.const 3 : i32
  %r = uop.max %a0, %a1 : i32
  return %r : i32
}
// max f32->f32 [-200.0, 0.0010000000474974513] => 0x3A83126F
