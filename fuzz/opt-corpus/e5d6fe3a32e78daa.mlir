4func.func @c285() -> i1 {
  %a0 = uop.const 0x322BCC77 : f32
  %a1 = uop.const 0x80000000 : f32
  %r = uop.cmpne %a0, %a1 : f32
  return %r : i1
}
// sin f32->f32 [0.10000000149011612] => 0x3DCC7577
