1func.func @c186() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const true
  %r = uop.add %a0, %a1 : i1
  return %r : i1
}
// mul f32->f32 [0.0010000000474974513, 65520.0] => 0x42830A3E
