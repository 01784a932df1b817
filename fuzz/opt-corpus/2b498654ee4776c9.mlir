1func.func @c156() -> f32 {
  %a0 = uop.const 0x43480000 : f32
  %a1 = uop.const 0x4B800000 : f32
  %r = uop.add %a0, %a1 : f32
  return %r : f32
}
// max i32->i32 [-2, 1] => 1
