5func.func @c16() -> f16 {
  %a0 = uop.const 0x0000 : f16
  %a1 = uop.const 0xFC00 : f16
  %r = uop.add %a0, %a1 : f16
  return %r : f16
}
// sin f16->f16 [1024.0] => 0xB113
