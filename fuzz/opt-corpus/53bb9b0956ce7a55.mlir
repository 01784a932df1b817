2func.func @c283() -> i1 {
  %a0 = uop.const 0x3A83126F : f32
  %a1 = uop.const 0x3F800000 : f32
  %r = uop.cmpne %a0, %a1 : f32
  return %r : i1
}
// cmpne f32->i1 [65520.0, 0.0] => true
