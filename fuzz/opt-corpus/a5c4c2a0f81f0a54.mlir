0func.func @c71() -> f16 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0x7C00 : f16
  %r = uop.add %a0, %a1 : f16
  return %r : f16
}
// cast f16->i32 [inf] => NOFOLD
