3func.func @c98() -> i32 {
  %a0 = uop.const -46341 : i32
  %a1 = uop.const 3 : i32
  %r = uop.mul %a0, %a1 : i32
  return %r : i32
}
// cast i32->f32 [-46341] => 0xC7350500
