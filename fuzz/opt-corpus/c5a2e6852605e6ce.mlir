5func.func @c40() -> i1 {
  %a0 = uop.const -2147483648 : i32
  %a1 = uop.const 3 : i32
  %r = uop.cmplt %a0, %a1 : i32
  return %r : i1
}
// mul f32->f32 [-0.0, 65520.0] => 0x80000000
