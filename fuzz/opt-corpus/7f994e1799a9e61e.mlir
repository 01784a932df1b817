3func.func @c38() -> i32 {
  %a0 = uop.const 65536 : i32
  %a1 = uop.const 100 : i32
  %r = uop.add %a0, %a1 : i32
  return %r : i32
}
// cast f32->i32 [-0.0] => 0
