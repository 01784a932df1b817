4func.func @c75() -> i1 {
  %a0 = uop.const 0 : i32
  %a1 = uop.const -7 : i32
  %r = uop.cmplt %a0, %a1 : i32
  return %r : i1
}
// cast i32->i1 [0] => false
