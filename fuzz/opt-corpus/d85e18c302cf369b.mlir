1func.func @c78() -> i1 {
  %a0 = uop.const 0x3800 : f16
  %a1 = uop.const 0xBC00 : f16
  %r = uop.cmpne %a0, %a1 : f16
  return %r : i1
}
// mul f16->f16 [-200.0, 2.0] => 0xDE40
