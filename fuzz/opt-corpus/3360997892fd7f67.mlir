5func.func @c46() -> i1 {
  %a0 = uop.const 0x7E967699 : f32
  %a1 = uop.const 0x322BCC77 : f32
  %r = uop.cmpne %a0, %a1 : f32
  return %r : i1
}
// add f32->f32 [3.5, -2.700000047683716] => 0x3F4CCCCC
