0func.func @c191() -> i1 {
  %a0 = uop.const 7 : i32
  %a1 = uop.const 3 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// mul i32->i32 [13, -2147483648] => -2147483648
