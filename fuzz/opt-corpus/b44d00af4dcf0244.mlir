3func.func @c260() -> i1 {
  %a0 = uop.const 0 : i32
  %a1 = uop.const -2 : i32
  %r = uop.cmplt %a0, %a1 : i32
  return %r : i1
}
// max i32->i32 [100, 100] => 100
