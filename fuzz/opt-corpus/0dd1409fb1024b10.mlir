5func.func @c184() -> i1 {
  %a0 = uop.const 13 : i32
  %r = uop.cast %a0 : i32 to i1
  return %r : i1
}
// max f16->f16 [0.0, 200.0] => 0x5A40
