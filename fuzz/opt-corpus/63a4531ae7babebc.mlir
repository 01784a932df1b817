2func.func @c37() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.mul %a0, %a1 : i1
  return %r : i1
}
// add i32->i32 [65536, 100] => 65636
