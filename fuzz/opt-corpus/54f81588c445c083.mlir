5func.func @c280() -> i32 {
  %a0 = uop.const 0x3800 : f16
  %r = uop.cast %a0 : f16 to i32
  return %r : i32
}
// mul f16->f16 [inf, 0.0] => 0x7E00
