3func.func @c122() -> i1 {
  %a0 = uop.const 0x00000000 : f32
  %a1 = uop.const 0xC3480000 : f32
  %r = uop.cmplt %a0, %a1 : f32
  return %r : i1
}
// cmplt i1->i1 [False, True] => true
