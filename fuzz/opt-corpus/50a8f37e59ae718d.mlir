1func.func @c192() -> i32 {
  %a0 = uop.const 13 : i32
  %a1 = uop.const -2147483648 : i32
  %r = uop.mul %a0, %a1 : i32
  return %r : i32
}
// cmplt i1->i1 [True, False] => false
