5func.func @c100() -> i1 {
  %a0 = uop.const -46341 : i32
  %a1 = uop.const 46341 : i32
  %r = uop.cmplt %a0, %a1 : i32
  return %r : i1
}
// recip f32->f32 [-0.0] => 0xFF800000
