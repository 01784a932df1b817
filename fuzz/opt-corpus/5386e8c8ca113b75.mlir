5func.func @c148() -> i1 {
  %a0 = uop.const 0x4F32D05E : f32
  %a1 = uop.const 0x3A83126F : f32
  %r = uop.cmplt %a0, %a1 : f32
  return %r : i1
}
// mul i1->i1 [True, True] => true
