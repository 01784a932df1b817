5func.func @c136() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.max %a0, %a1 : i1
  return %r : i1
}
// exp2 f16->f16 [-2.69921875] => 0x30ED
