3func.func @c296() -> i1 {
  %a0 = uop.const 0xC166 : f16
  %a1 = uop.const 0x7C00 : f16
  %r = uop.cmplt %a0, %a1 : f16
  return %r : i1
}
// mul i32->i32 [-2, 2147483647] => 2
