5func.func @c250() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// sin f16->f16 [-0.0] => 0x8000
