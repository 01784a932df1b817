4func.func @gpu_indivisible() -> tensor<10xf32> attributes {uop.opts = #uop.opts<gpu, local = {0: 4}>} {
  %a = uop.buffer 0 : tensor<10xf32>
  %0 = uop.sin %a : tensor<10xf32>
  return %0 : tensor<10xf32>
}
