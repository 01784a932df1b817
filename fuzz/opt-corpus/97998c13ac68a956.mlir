1func.func @c24() -> i1 {
  %a0 = uop.const 0x0000 : f16
  %a1 = uop.const 0x7BFF : f16
  %r = uop.cmpne %a0, %a1 : f16
  return %r : i1
}
// mul f16->f16 [0.0, 0.0] => 0x0000
