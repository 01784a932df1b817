4func.func @c267() -> i32 {
  %a0 = uop.const 0xBC00 : f16
  %r = uop.cast %a0 : f16 to i32
  return %r : i32
}
// max f16->f16 [0.199951171875, -inf] => 0x3266
