4func.func @c33() -> i1 {
  %a0 = uop.const -46341 : i32
  %a1 = uop.const 65536 : i32
  %r = uop.cmplt %a0, %a1 : i32
  return %r : i1
}
// mul f16->f16 [0.199951171875, nan] => 0x7E00
