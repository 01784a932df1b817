3func.func @c80() -> i32 {
  %a0 = uop.const 0x7E967699 : f32
  %r = uop.cast %a0 : f32 to i32
  return %r : i32
}
// cmpne f16->i1 [3.5, 0.5] => true
