3func.func @c26() -> f32 {
  %a0 = uop.const 0x40000000 : f32
  %r = uop.sin %a0 : f32
  return %r : f32
}
// add f16->f16 [-200.0, 1.0] => 0xDA38
