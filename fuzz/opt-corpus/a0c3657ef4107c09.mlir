4func.func @c177() -> i32 {
  %a0 = uop.const -2 : i32
  %a1 = uop.const -1 : i32
  %r = uop.add %a0, %a1 : i32
  return %r : i32
}
// max f16->f16 [inf, -inf] => 0x7C00
