1func.func @c258() -> i1 {
  %a0 = uop.const 0x322BCC77 : f32
  %a1 = uop.const 0x4F32D05E : f32
  %r = uop.cmplt %a0, %a1 : f32
  return %r : i1
}
// max i1->i1 [True, False] => true
