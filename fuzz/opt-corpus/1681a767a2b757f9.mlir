1func.func @c18() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.add %a0, %a1 : i1
  return %r : i1
}
// sqrt f32->f32 [65504.0] => 0x437FEFFF
