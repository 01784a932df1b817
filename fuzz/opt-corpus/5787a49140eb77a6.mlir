2func.func @c223() -> i1 {
  %a0 = uop.const 0x7BFF : f16
  %a1 = uop.const 0x7C00 : f16
  %r = uop.cmplt %a0, %a1 : f16
  return %r : i1
}
// sqrt f32->f32 [1024.0] => 0x42000000
