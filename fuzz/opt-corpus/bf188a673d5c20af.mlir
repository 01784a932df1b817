2func.func @c103() -> i32 {
  %a0 = uop.const 0x44800000 : f32
  %r = uop.cast %a0 : f32 to i32
  return %r : i32
}
// cmplt i1->i1 [True, False] => false
