4func.func @c255() -> i1 {
  %a0 = uop.const 46341 : i32
  %a1 = uop.const 0 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// mul f32->f32 [65520.0, 0.5] => 0x46FFF000
