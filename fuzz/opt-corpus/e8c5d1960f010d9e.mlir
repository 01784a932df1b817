2func.func @c205() -> i1 {
  %a0 = uop.const -1 : i32
  %a1 = uop.const 0 : i32
  %r = uop.cmplt %a0, %a1 : i32
  return %r : i1
}
// cast i32->f16 [-1] => 0xBC00
