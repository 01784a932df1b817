5func.func @c214() -> i32 {
  %a0 = uop.const 0x3A83126F : f32
  %r = uop.cast %a0 : f32 to i32
  return %r : i32
}
// cmplt i32->i1 [13, 2] => false
