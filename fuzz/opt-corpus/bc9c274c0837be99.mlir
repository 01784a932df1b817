3func.func @c56() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const true
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// cast f16->i32 [inf] => NOFOLD
