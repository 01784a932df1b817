3func.func @c230() -> i1 {
  %a0 = uop.const -2 : i32
  %r = uop.cast %a0 : i32 to i1
  return %r : i1
}
// max f16->f16 [3.5, -inf] => 0x4300
