// RUN: uop-opt %s --split-input-file --uop-hand-opt | FileCheck %s --check-prefix=CPU
// RUN: uop-opt %s --split-input-file --uop-attach-target='target={#uop.target<cuda, chip = "sm_90", warp = 32, max_threads = 1024, max_block = [1024, 1024, 64], max_grid = [2147483647, 65535, 65535]>}' --uop-hand-opt --verify-diagnostics | FileCheck %s --check-prefix=GPU
//
// uop-hand-opt: the seed's hand_opt_choice (target=cpu) and gpu_opt_choice
// (target=gpu). Every expectation is what the seed's functions return for the
// same graph (uopc/opt.py, uopc/gpu.py). The GPU target is one that, like the
// seed, does not say how many multiprocessors it has: uop's rule for reduces
// with few outputs (uop-hand-opt-cuda.mlir) needs that count.

// A 64^3 gemm: a 4x4 register tile and threads on axis 0 (64*64*64 >= 2^16);
// on the GPU 16x16 threads and a 2x2 upcast (axes of 64 >= 32, it reduces).
// CPU-LABEL: func.func private @r_64_64
// CPU-SAME:    uop.opts = #uop.opts<upcast = {0: 4, 1: 4}, thread = 0>
// GPU-LABEL: func.func private @r_64_64
// GPU-SAME:    uop.opts = #uop.opts<upcast = {0: 2, 1: 2}, gpu, local = {0: 16, 1: 16}>
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

// A 6x10 output reducing 8: 2x2 (4 does not divide 6 or 10); no threads.
// CPU-LABEL: func.func private @r_6_10
// CPU-SAME:    uop.opts = #uop.opts<upcast = {0: 2, 1: 2}>
// GPU-LABEL: func.func private @r_6_10
// GPU-SAME:    uop.opts = #uop.opts<gpu, local = {0: 2, 1: 2}>
func.func private @r_6_10() -> tensor<6x10xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<480xf32>
  %r = uop.reshape %a, [6, 10, 8] : tensor<480xf32>
  %c = uop.reduce %r <add> pop 1 : tensor<6x10x8xf32>
  return %c : tensor<6x10xf32>
}

// -----

// Elementwise 256x256: no tile (nothing reduces), threads on axis 0.
// CPU-LABEL: func.func private @e_256_256
// CPU-SAME:    uop.opts = #uop.opts<thread = 0>
// GPU-LABEL: func.func private @e_256_256
// GPU-SAME:    uop.opts = #uop.opts<gpu, local = {0: 16, 1: 16}>
func.func private @e_256_256() -> tensor<256x256xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<65536xf32>
  %r = uop.reshape %a, [256, 256] : tensor<65536xf32>
  %e = uop.exp2 %r : tensor<256x256xf32>
  return %e : tensor<256x256xf32>
}

// -----

// Row sums of 512x4: a 4x upcast of the one output axis; on the GPU one axis
// may take the whole 256-thread block.
// CPU-LABEL: func.func private @r_512
// CPU-SAME:    uop.opts = #uop.opts<upcast = {0: 4}>
// GPU-LABEL: func.func private @r_512
// GPU-SAME:    uop.opts = #uop.opts<upcast = {0: 2}, gpu, local = {0: 256}>
func.func private @r_512() -> tensor<512xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<2048xf32>
  %r = uop.reshape %a, [512, 4] : tensor<2048xf32>
  %c = uop.reduce %r <add> pop 1 : tensor<512x4xf32>
  return %c : tensor<512xf32>
}

// -----

// A full sum of 16 elements: no output axis to tile, so the reduce is
// unrolled 4x (16 % 4 == 0, 16 < 64); the GPU gets a 1-block grid.
// CPU-LABEL: func.func private @r_
// CPU-SAME:    uop.opts = #uop.opts<unroll = 4>
// GPU-LABEL: func.func private @r_
// GPU-SAME:    uop.opts = #uop.opts<gpu>
func.func private @r_() -> f32 attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<16xf32>
  %c = uop.reduce %a <add> pop 1 : tensor<16xf32>
  return %c : f32
}

// -----

// A kernel that names its opts keeps them (a function-level #uop.opts that
// uop-kernelize copied).
// CPU-LABEL: func.func private @e_8
// CPU-SAME:    uop.opts = #uop.opts<unroll = 2>
// GPU-LABEL: func.func private @e_8
// GPU-SAME:    uop.opts = #uop.opts<unroll = 2>
func.func private @e_8() -> tensor<8xf32> attributes {uop.kernel, uop.opts = #uop.opts<unroll = 2>} {
  %a = uop.buffer 0 : tensor<8xf32>
  %e = uop.exp2 %a : tensor<8xf32>
  return %e : tensor<8xf32>
}

// -----

// Four non-trivial output axes: no CPU opts. On the GPU (where the seed
// stops: its grid has 3 dimensions) threads on three axes, at most a
// block's dimensions; one axis of blocks left, no merge needed.
// CPU-LABEL: func.func private @e_4_4_4_4
// CPU-SAME:    uop.opts = #uop.opts<>
// GPU-LABEL: func.func private @e_4_4_4_4
// GPU-SAME:    uop.opts = #uop.opts<gpu, local = {1: 4, 2: 4, 3: 4}>
func.func private @e_4_4_4_4() -> tensor<4x4x4x4xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<256xf32>
  %r = uop.reshape %a, [4, 4, 4, 4] : tensor<256xf32>
  %e = uop.exp2 %r : tensor<4x4x4x4xf32>
  return %e : tensor<4x4x4x4xf32>
}

// -----

// Five axes of blocks (no thread divides an axis of 3): more than the grid's
// 3 dimensions, so axes 0-2 are one (z: 27 blocks), then y and x.
// GPU-LABEL: func.func private @e_3_3_3_3_3
// GPU-SAME:    uop.opts = #uop.opts<gpu, merge = {0: 3}>
func.func private @e_3_3_3_3_3() -> tensor<3x3x3x3x3xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<243xf32>
  %r = uop.reshape %a, [3, 3, 3, 3, 3] : tensor<243xf32>
  %e = uop.exp2 %r : tensor<3x3x3x3x3xf32>
  return %e : tensor<3x3x3x3x3xf32>
}

// -----

// More blocks on a leading axis than y takes (65535): merged into x.
// GPU-LABEL: func.func private @e_65537_3
// GPU-SAME:    uop.opts = #uop.opts<gpu, merge = {0: 2}>
func.func private @e_65537_3() -> tensor<65537x3xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<196611xf32>
  %r = uop.reshape %a, [65537, 3] : tensor<196611xf32>
  %e = uop.exp2 %r : tensor<65537x3xf32>
  return %e : tensor<65537x3xf32>
}

// -----

// 65535 blocks on y still fit: no merge.
// GPU-LABEL: func.func private @e_65535_3
// GPU-SAME:    uop.opts = #uop.opts<gpu>
func.func private @e_65535_3() -> tensor<65535x3xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<196605xf32>
  %r = uop.reshape %a, [65535, 3] : tensor<196605xf32>
  %e = uop.exp2 %r : tensor<65535x3xf32>
  return %e : tensor<65535x3xf32>
}
