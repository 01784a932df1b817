0func.func @c53() -> f32 {
  %a0 = uop.const 0x4788B800 : f32
  %r = uop.log2 %a0 : f32
  return %r : f32
}
// floormod i32->i32 [-46341, -2] => -1
