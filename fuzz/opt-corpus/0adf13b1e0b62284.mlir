3//
// uop-kernelize (the seed's make_plan): materialization points, outlining with
// local buffer numbers, one function per distinct kernel, the seed's names,
// aliased roots, stage_broadcast_compute, detach markers.

// Two roots computing the same thing on different buffers: one kernel, launched twice.
func.func @main() -> (tensor<8xf32>, tensor<8xf32>) {
  %a = uop.buffer 0 : tensor<8xf32>
  %b = uop.buffer 1 : tensor<8xf32>
  %ea = uop.exp2 %a : tensor<8xf32>
  %eb = uop.exp2 %b : tensor<8xf32>
  return %ea, %eb : tensor<8xf32>, tensor<8xf32>
}
