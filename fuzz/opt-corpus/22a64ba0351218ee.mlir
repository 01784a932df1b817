4// thread = 1 makes axis 1 the outermost loop (range idx 0) and a THREAD range.
func.func @thread() -> tensor<4x6xf32> attributes {uop.opts = #uop.opts<thread = 1>} {
  %a = uop.buffer 0 : tensor<24xf32>
  %0 = uop.reshape %a, [4, 6] : tensor<24xf32>
  %1 = uop.sqrt %0 : tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}
