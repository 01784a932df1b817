1func.func @c294() -> i32 {
  %a0 = uop.const 0x7C00 : f16
  %r = uop.cast %a0 : f16 to i32
  return %r : i32
}
// max f16->f16 [0.5, -2.69921875] => 0x3800
