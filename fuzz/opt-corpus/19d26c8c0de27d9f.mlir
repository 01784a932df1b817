1func.func @c174() -> i1 {
  %a0 = uop.const 0x7E967699 : f32
  %a1 = uop.const 0x7FC00000 : f32
  %r = uop.cmplt %a0, %a1 : f32
  return %r : i1
}
// max i1->i1 [False, True] => true
