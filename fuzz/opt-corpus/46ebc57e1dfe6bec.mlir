3func.func @c266() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.add %a0, %a1 : i1
  return %r : i1
}
// cast f16->i32 [-1.0] => -1
