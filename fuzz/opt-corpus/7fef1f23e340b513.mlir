5func.func @c226() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.cmpne %a0, %a1 : i1
  return %r : i1
}
// mul f16->f16 [0.0010004043579101562, 0.0] => 0x0000
