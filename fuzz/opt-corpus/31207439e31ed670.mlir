0func.func @c275() -> i32 {
  %a0 = uop.const 65536 : i32
  %a1 = uop.const -7 : i32
  %r = uop.floormod %a0, %a1 : i32
  return %r : i32
}
// cmplt i1->i1 [True, False] => false
