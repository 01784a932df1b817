5func.func @c76() -> i1 {
  %a0 = uop.const 0 : i32
  %r = uop.cast %a0 : i32 to i1
  return %r : i1
}
// max i32->i32 [0, 0] => 0
