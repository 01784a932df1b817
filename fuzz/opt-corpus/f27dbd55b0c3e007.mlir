0func.func @c77() -> i32 {
  %a0 = uop.const 0 : i32
  %a1 = uop.const 0 : i32
  %r = uop.max %a0, %a1 : i32
  return %r : i32
}
// cmpne f16->i1 [0.5, -1.0] => true
