5func.func @c298() -> i1 {
  %a0 = uop.const -2 : i32
  %r = uop.cast %a0 : i32 to i1
  return %r : i1
}
// sin f32->f32 [0.10000000149011612] => 0x3DCC7577
