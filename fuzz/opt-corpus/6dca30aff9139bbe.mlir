5func.func @c70() -> f32 {
  %a0 = uop.const 0x3A83126F : f32
  %a1 = uop.const 0xFE967699 : f32
  %r = uop.add %a0, %a1 : f32
  return %r : f32
}
// add f16->f16 [inf, inf] => 0x7C00
