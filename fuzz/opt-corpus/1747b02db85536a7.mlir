1// STACK of nothing.
func.func @stack_of_nothing() {
  %0 = "uop.stack"() : () -> tensor<0xf32>
  return
}
