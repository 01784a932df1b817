3// A closed program: a kernel with no buffers.
func.func @main() -> tensor<2xi32> {
  %c = uop.const 3 : i32
  %r = uop.reshape %c, [1] : i32
  %e = uop.expand %r, [2] : tensor<1xi32>
  return %e : tensor<2xi32>
}
