0func.func @c29() -> i1 {
  %a0 = uop.const 2147483647 : i32
  %r = uop.cast %a0 : i32 to i1
  return %r : i1
}
// mul f32->f32 [1.0, 2.0] => 0x40000000
