0func.func @c215() -> i1 {
  %a0 = uop.const 13 : i32
  %a1 = uop.const 2 : i32
  %r = uop.cmplt %a0, %a1 : i32
  return %r : i1
}
// cast f32->i32 [1.0] => 1
