1func.func @c318() -> i32 {
  %a0 = uop.const 1 : i32
  %a1 = uop.const 13 : i32
  %r = uop.mul %a0, %a1 : i32
  return %r : i32
}
// cast f16->i32 [-1.0] => -1
