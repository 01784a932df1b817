5func.func @c160() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// mul f32->f32 [9.99999993922529e-09, 65520.0] => 0x3A2BC1BA
