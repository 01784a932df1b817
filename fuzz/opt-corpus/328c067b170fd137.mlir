2func.func @out_of_bounds_const() -> i32 {
  %m1 = uop.const -1 : i32
  %s = uop.const dense<[1, 2]> : tensor<2xi32>
  %0 = uop.index %s[%m1] : tensor<2xi32>
  return %0 : i32
}
