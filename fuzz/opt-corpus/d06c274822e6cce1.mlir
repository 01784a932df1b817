0func.func @bools_and_compares() -> (i1, i1, i1, i1, i32) {
  %t = uop.const true
  %f = uop.const false
  %a = uop.const 3 : i32
  %b = uop.const -3 : i32
  %0 = uop.add %t, %t : i1      // bool(1 + 1)
  %1 = uop.cmplt %f, %t : i1
  %2 = uop.cmplt %a, %b : i32
  %3 = uop.cmpne %a, %b : i32
  %4 = uop.max %a, %b : i32
  return %0, %1, %2, %3, %4 : i1, i1, i1, i1, i32
}
