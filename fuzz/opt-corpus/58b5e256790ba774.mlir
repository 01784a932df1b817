0func.func @c317() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// mul i32->i32 [1, 13] => 13
