4func.func @c195() -> i32 {
  %a0 = uop.const 2147483647 : i32
  %a1 = uop.const 100 : i32
  %r = uop.mul %a0, %a1 : i32
  return %r : i32
}
// cast i32->i1 [2147483647] => true
