3func.func @c20() -> f16 {
  %a0 = uop.const 0x7C00 : f16
  %r = uop.cast %a0 : f16 to f16
  return %r : f16
}
// recip f16->f16 [1024.0] => 0x1400
