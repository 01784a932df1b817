4func.func @c123() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const true
  %r = uop.cmplt %a0, %a1 : i1
  return %r : i1
}
// recip f32->f32 [200.0] => 0x3BA3D70A
