2//
// A constant index out of bounds of a stack is an error at that index.

func.func @out_of_bounds(%x: i32) -> i32 {
  %c5 = uop.const 5 : i32
  %s = uop.stack %x, %x, %x : i32
  %0 = uop.index %s[%c5] : tensor<3xi32>
  return %0 : i32
}
