0//
// uop-hand-opt: the seed's hand_opt_choice (target=cpu) and gpu_opt_choice
// (target=gpu). Every expectation is what the seed's functions return for the
// same graph (uopc/opt.py, uopc/gpu.py).

// A 64^3 gemm: a 4x4 register tile and threads on axis 0 (64*64*64 >= 2^16);
// on the GPU 16x16 threads and a 2x2 upcast (axes of 64 >= 32, it reduces).
func.func private @r_64_64() -> tensor<64x64xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<4096xf32>
  %b = uop.buffer 1 : tensor<4096xf32>
  %a2 = uop.reshape %a, [64, 1, 64] : tensor<4096xf32>
  %ae = uop.expand %a2, [64, 64, 64] : tensor<64x1x64xf32>
  %b2 = uop.reshape %b, [64, 64] : tensor<4096xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<64x64xf32>
  %b3 = uop.reshape %bt, [1, 64, 64] : tensor<64x64xf32>
  %be = uop.expand %b3, [64, 64, 64] : tensor<1x64x64xf32>
  %m = uop.mul %ae, %be : tensor<64x64x64xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<64x64x64xf32>
  return %c : tensor<64x64xf32>
}
