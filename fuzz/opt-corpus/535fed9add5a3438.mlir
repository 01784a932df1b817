0func.func @c137() -> f16 {
  %a0 = uop.const 0xC166 : f16
  %r = uop.exp2 %a0 : f16
  return %r : f16
}
// cmplt i32->i1 [-46341, 65536] => true
