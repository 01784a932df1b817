1func.func @c138() -> i1 {
  %a0 = uop.const -46341 : i32
  %a1 = uop.const 65536 : i32
  %r = uop.cmplt %a0, %a1 : i32
  return %r : i1
}
// exp2 f32->f32 [3.5] => 0x413504F3
