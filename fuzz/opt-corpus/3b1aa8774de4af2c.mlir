5func.func @c52() -> i1 {
  %a0 = uop.const 0x1419 : f16
  %a1 = uop.const 0x6400 : f16
  %r = uop.cmplt %a0, %a1 : f16
  return %r : i1
}
// log2 f32->f32 [70000.0] => 0x4180C2B3
