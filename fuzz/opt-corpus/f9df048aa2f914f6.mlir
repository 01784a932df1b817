1func.func @c252() -> i32 {
  %a0 = uop.const 7 : i32
  %a1 = uop.const 100 : i32
  %r = uop.max %a0, %a1 : i32
  return %r : i32
}
// sqrt f16->f16 [nan] => 0x7E00
