5func.func @c310() -> i32 {
  %a0 = uop.const 0x43480000 : f32
  %r = uop.cast %a0 : f32 to i32
  return %r : i32
}
// cmpne i1->i1 [True, True] => false
