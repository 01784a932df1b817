3func.func @c116() -> i1 {
  %a0 = uop.const -2147483648 : i32
  %a1 = uop.const 100 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// cmplt f16->i1 [inf, 0.0999755859375] => false
