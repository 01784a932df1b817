3func.func @c206() -> f16 {
  %a0 = uop.const -1 : i32
  %r = uop.cast %a0 : i32 to f16
  return %r : f16
}
// log2 f16->f16 [-inf] => 0x7E00
