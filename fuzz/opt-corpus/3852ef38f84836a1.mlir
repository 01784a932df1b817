3func.func @c224() -> f32 {
  %a0 = uop.const 0x44800000 : f32
  %r = uop.sqrt %a0 : f32
  return %r : f32
}
// add i32->i32 [46341, 2147483647] => -2147437308
