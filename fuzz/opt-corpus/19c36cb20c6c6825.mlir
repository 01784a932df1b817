3func.func @c188() -> i32 {
  %a0 = uop.const 100 : i32
  %a1 = uop.const 1 : i32
  %r = uop.floormod %a0, %a1 : i32
  return %r : i32
}
// cast i32->i1 [100] => true
