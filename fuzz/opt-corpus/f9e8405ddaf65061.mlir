0func.func @c113() -> f32 {
  %a0 = uop.const 0x4F32D05E : f32
  %r = uop.log2 %a0 : f32
  return %r : f32
}
// cmpne i32->i1 [0, 2] => true
