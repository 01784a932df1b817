3func.func @c290() -> f16 {
  %a0 = uop.const 0x4000 : f16
  %r = uop.exp2 %a0 : f16
  return %r : f16
}
// sin f16->f16 [200.0] => 0xBAFD
