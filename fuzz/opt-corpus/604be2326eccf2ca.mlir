2// An open program: ALU ops are pushed through stacks, then simplified.
func.func @push_through_stack(%x: i32, %y: i32) -> tensor<2xi32> {
  %z = uop.const 0 : i32
  %one = uop.const 1 : i32
  %s = uop.stack %x, %y : i32
  %c = uop.const dense<[0, 1]> : tensor<2xi32>
  %0 = uop.add %s, %c : tensor<2xi32>
  return %0 : tensor<2xi32>
}
