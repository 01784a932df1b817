4func.func @c117() -> i1 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0x2E66 : f16
  %r = uop.cmplt %a0, %a1 : f16
  return %r : i1
}
// cmpne f16->i1 [inf, inf] => false
