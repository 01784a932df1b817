// RUN: uop-opt %s --split-input-file --uop-attach-target=target=sm_90 --uop-hand-opt | FileCheck %s
//
// target=cuda: the seed's gpu_opt_choice, except a large two-axis reduce (a
// gemm of at least 1024x1024 outputs and 256 terms). An f32 GEMM whose rows
// cp.async can copy (A and B row-major, 16-byte aligned) is staged through
// shared memory on CUDA cores: `stages` without `tc`, a 64x128x32 block
// tile of 8x16 threads with 8x8 outputs each, 2 stages (48 KiB). Measured on
// an H200: 8192^3 48.3 TFLOP/s (the GPU search's choice; 128x64x32 with 4
// stages 46.0) against 33.2 for the register tile below
// (bench/results/h200-2026-12-04-issue30.md).

// CHECK-LABEL: func.func private @r_1024_1024
// CHECK-SAME: uop.opts = #uop.opts<upcast = {0: 8, 1: 8}, unroll = 32, gpu, local = {0: 8, 1: 16}, stages = 2>
func.func private @r_1024_1024() -> tensor<1024x1024xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<1048576xf32>
  %b = uop.buffer 1 : tensor<1048576xf32>
  %a2 = uop.reshape %a, [1024, 1, 1024] : tensor<1048576xf32>
  %ae = uop.expand %a2, [1024, 1024, 1024] : tensor<1024x1x1024xf32>
  %b2 = uop.reshape %b, [1024, 1024] : tensor<1048576xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<1024x1024xf32>
  %b3 = uop.reshape %bt, [1, 1024, 1024] : tensor<1024x1024xf32>
  %be = uop.expand %b3, [1024, 1024, 1024] : tensor<1x1024x1024xf32>
  %m = uop.mul %ae, %be : tensor<1024x1024x1024xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<1024x1024x1024xf32>
  return %c : tensor<1024x1024xf32>
}

// -----

// A @ B^T (B stored N x K): the staged GEMM copies rows of B along N, so it
// keeps the register tile without shared memory, 16x8 outputs a thread in
// 8x16-thread blocks, B's rows prefetched 8 iterations ahead (H200, 8192^3:
// 25.5 TFLOP/s against 11.1 for gpu_opt_choice's 2x2; prefetch 24.8 ->
// 31.6).

// CHECK-LABEL: func.func private @r_1024_1024_bt
// CHECK-SAME: uop.opts = #uop.opts<upcast = {0: 16, 1: 8}, gpu, local = {0: 8, 1: 16}, prefetch = 8>
func.func private @r_1024_1024_bt() -> tensor<1024x1024xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<1048576xf32>
  %b = uop.buffer 1 : tensor<1048576xf32>
  %a2 = uop.reshape %a, [1024, 1, 1024] : tensor<1048576xf32>
  %ae = uop.expand %a2, [1024, 1024, 1024] : tensor<1024x1x1024xf32>
  %b3 = uop.reshape %b, [1, 1024, 1024] : tensor<1048576xf32>
  %be = uop.expand %b3, [1024, 1024, 1024] : tensor<1x1024x1024xf32>
  %m = uop.mul %ae, %be : tensor<1024x1024x1024xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<1024x1024x1024xf32>
  return %c : tensor<1024x1024xf32>
}

// -----

// A small gemm: 4096 outputs, fewer than an eighth of the threads an H200
// runs at once (132 multiprocessors x 1024): no upcast (a thread an output)
// and the reduce loop unrolled by 8 (8 loads in flight a thread). The seed's
// 2x2 upcast is what a target without `multiprocessors` gets
// (uop-hand-opt.mlir). Blocks of a warp (2 x 16 threads): 128 blocks for the
// 132 multiprocessors, where 256-thread blocks would fill 16.
// CHECK-LABEL: func.func private @r_64_64
// CHECK-SAME: uop.opts = #uop.opts<unroll = 8, gpu, local = {0: 2, 1: 16}>
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

// -----

// GPT's row statistics (batch 16 x context 64 rows over 64 features, 1024
// outputs): unrolled by 8, no upcast. On the H200 this took the GPT step's
// 19 such kernels from 60-120 us to under 22 us each and the step from 3.13
// to 1.54 ms, and the unroll of every reduce with fewer outputs than the GPU
// has threads to 1.37 ms (bench/results/h200-2026-12-03-small-reduce.txt).
// Blocks of one warp: 32 blocks on 32 multiprocessors instead of 4 blocks of
// 256 threads on 4; the step 1.26 -> 0.90 ms
// (bench/results/h200-2026-12-03-multi-output.txt).
// CHECK-LABEL: func.func private @r_16_64
// CHECK-SAME: uop.opts = #uop.opts<unroll = 8, gpu, local = {0: 2, 1: 16}>
func.func private @r_16_64() -> tensor<16x64xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<65536xf32>
  %r = uop.reshape %a, [16, 64, 64] : tensor<65536xf32>
  %c = uop.reduce %r <add> pop 1 : tensor<16x64x64xf32>
  return %c : tensor<16x64xf32>
}

// -----

// 32768 outputs (a quarter of the GPU's threads): gpu_opt_choice's 2x
// upcast, and the reduce loop unrolled by 8.
// CHECK-LABEL: func.func private @r_512_64
// CHECK-SAME: uop.opts = #uop.opts<upcast = {0: 2, 1: 2}, unroll = 8, gpu, local = {0: 16, 1: 16}>

func.func private @r_512_64() -> tensor<512x64xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<2097152xf32>
  %r = uop.reshape %a, [512, 64, 64] : tensor<2097152xf32>
  %c = uop.reduce %r <add> pop 1 : tensor<512x64x64xf32>
  return %c : tensor<512x64xf32>
}

// -----

// 262144 outputs (twice the GPU's threads): gpu_opt_choice's alone.
// CHECK-LABEL: func.func private @r_4096_64
// CHECK-SAME: uop.opts = #uop.opts<upcast = {0: 2, 1: 2}, gpu, local = {0: 16, 1: 16}>
func.func private @r_4096_64() -> tensor<4096x64xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<1048576xf32>
  %r = uop.reshape %a, [4096, 64, 4] : tensor<1048576xf32>
  %c = uop.reduce %r <add> pop 1 : tensor<4096x64x4xf32>
  return %c : tensor<4096x64xf32>
}
