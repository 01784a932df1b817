4// A STACK is a where-chain over its leading index; a scalar result is stored
// at index 0 with no loops.
func.func @stack_index() -> i32 {
  %c1 = uop.const 1 : i32
  %c2 = uop.const 2 : i32
  %s = uop.stack %c1, %c2 : i32
  %x = uop.index %s[%c1] : tensor<2xi32>
  return %x : i32
}
