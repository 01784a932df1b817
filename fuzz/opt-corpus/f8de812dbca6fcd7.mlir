4func.func @c189() -> i1 {
  %a0 = uop.const 100 : i32
  %r = uop.cast %a0 : i32 to i1
  return %r : i1
}
// recip f16->f16 [3.5] => 0x3492
