3func.func @c314() -> i1 {
  %a0 = uop.const -46341 : i32
  %a1 = uop.const 13 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// cmpne f16->i1 [2.0, -200.0] => true
