0func.func @c293() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const true
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// cast f16->i32 [inf] => NOFOLD
