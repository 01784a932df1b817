3func.func @c248() -> i1 {
  %a0 = uop.const 0xBC00 : f16
  %r = uop.cast %a0 : f16 to i1
  return %r : i1
}
// cmpne f16->i1 [-200.0, inf] => true
