1func.func @c288() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.add %a0, %a1 : i1
  return %r : i1
}
// sqrt f32->f32 [0.0] => 0x00000000
