2func.func @c313() -> i32 {
  %a0 = uop.const 0x477FF000 : f32
  %r = uop.cast %a0 : f32 to i32
  return %r : i32
}
// cmpne i32->i1 [-46341, 13] => true
