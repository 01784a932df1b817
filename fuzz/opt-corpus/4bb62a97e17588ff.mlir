0func.func @c173() -> i1 {
  %a0 = uop.const -2147483648 : i32
  %a1 = uop.const 2 : i32
  %r = uop.cmplt %a0, %a1 : i32
  return %r : i1
}
// cmplt f32->i1 [9.999999680285692e+37, nan] => false
