3func.func @c32() -> i1 {
  %a0 = uop.const 0x7C00 : f16
  %a1 = uop.const 0xFC00 : f16
  %r = uop.cmplt %a0, %a1 : f16
  return %r : i1
}
// cmplt i32->i1 [-46341, 65536] => true
