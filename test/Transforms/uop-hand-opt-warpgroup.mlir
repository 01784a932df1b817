// RUN: uop-opt %s --split-input-file --uop-attach-target=target=sm_90a --uop-hand-opt | FileCheck %s --check-prefix=SM90A
// RUN: uop-opt %s --split-input-file --uop-attach-target=target=sm_90a --uop-hand-opt=warpgroup=false | FileCheck %s --check-prefix=OFF
// RUN: uop-opt %s --split-input-file --uop-attach-target=target=sm_90 --uop-hand-opt | FileCheck %s --check-prefix=SM90
// RUN: uop-opt %s --split-input-file --uop-attach-target=target=sm_80 --uop-hand-opt | FileCheck %s --check-prefix=SM80
//
// An f16 GEMM (f32 sums, f32 result, B stored K x N or N x K) whose M, N, K are
// multiples of 128 gets Hopper's warpgroup MMA on sm_90a (the chip whose
// `mma` list has it): 2 warpgroups of 64 x 256, 64 of K a stage, 4 stages
// (192 KiB). sm_90, sm_80, and sm_90a with `warpgroup=false` (CUDA C, which
// has no lowering of TMA and wgmma) keep mma.sync.

// SM90A-LABEL: func.func private @r_256_512
// SM90A-SAME: uop.opts = #uop.opts<unroll = 4, gpu, local = {0: 2}, stages = 4, tc = #uop.mma<m = 64, n = 256, k = 16, a = f16, c = f32, warpgroup = true>>
// OFF-LABEL: func.func private @r_256_512
// OFF-SAME: tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>
// SM90-LABEL: func.func private @r_256_512
// SM90-SAME: tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>
// SM80-LABEL: func.func private @r_256_512
// SM80-SAME: tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>
func.func private @r_256_512() -> tensor<256x512xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<65536xf16>
  %b = uop.buffer 1 : tensor<131072xf16>
  %af = uop.cast %a : tensor<65536xf16> to f32
  %bf = uop.cast %b : tensor<131072xf16> to f32
  %a2 = uop.reshape %af, [256, 1, 256] : tensor<65536xf32>
  %ae = uop.expand %a2, [256, 512, 256] : tensor<256x1x256xf32>
  %b2 = uop.reshape %bf, [256, 512] : tensor<131072xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<256x512xf32>
  %b3 = uop.reshape %bt, [1, 512, 256] : tensor<512x256xf32>
  %be = uop.expand %b3, [256, 512, 256] : tensor<1x512x256xf32>
  %m = uop.mul %ae, %be : tensor<256x512x256xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<256x512x256xf32>
  return %c : tensor<256x512xf32>
}

// -----

// N a multiple of 128, not 256: 64 x 128 a warpgroup; K of 2 steps: 2 stages.
// SM90A-LABEL: func.func private @r_128_384
// SM90A-SAME: uop.opts = #uop.opts<unroll = 4, gpu, local = {0: 2}, stages = 2, tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>>
func.func private @r_128_384() -> tensor<128x384xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<16384xf16>
  %b = uop.buffer 1 : tensor<49152xf16>
  %af = uop.cast %a : tensor<16384xf16> to f32
  %bf = uop.cast %b : tensor<49152xf16> to f32
  %a2 = uop.reshape %af, [128, 1, 128] : tensor<16384xf32>
  %ae = uop.expand %a2, [128, 384, 128] : tensor<128x1x128xf32>
  %b2 = uop.reshape %bf, [128, 384] : tensor<49152xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<128x384xf32>
  %b3 = uop.reshape %bt, [1, 384, 128] : tensor<384x128xf32>
  %be = uop.expand %b3, [128, 384, 128] : tensor<1x384x128xf32>
  %m = uop.mul %ae, %be : tensor<128x384x128xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<128x384x128xf32>
  return %c : tensor<128x384xf32>
}

// -----

// B^T (N x K): wgmma's K-major B.
// SM90A-LABEL: func.func private @bt
// SM90A-SAME: uop.opts = #uop.opts<unroll = 4, gpu, local = {0: 2}, stages = 2, tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>>
func.func private @bt() -> tensor<128x128xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<16384xf16>
  %b = uop.buffer 1 : tensor<16384xf16>
  %af = uop.cast %a : tensor<16384xf16> to f32
  %bf = uop.cast %b : tensor<16384xf16> to f32
  %a2 = uop.reshape %af, [128, 1, 128] : tensor<16384xf32>
  %ae = uop.expand %a2, [128, 128, 128] : tensor<128x1x128xf32>
  %b3 = uop.reshape %bf, [1, 128, 128] : tensor<16384xf32>
  %be = uop.expand %b3, [128, 128, 128] : tensor<1x128x128xf32>
  %m = uop.mul %ae, %be : tensor<128x128x128xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<128x128x128xf32>
  return %c : tensor<128x128xf32>
}

// A small GEMM: mma.sync on sm_90a too.
// SM90A-LABEL: func.func private @small
// SM90A-SAME: tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>
func.func private @small() -> tensor<64x64xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<4096xf16>
  %b = uop.buffer 1 : tensor<4096xf16>
  %af = uop.cast %a : tensor<4096xf16> to f32
  %bf = uop.cast %b : tensor<4096xf16> to f32
  %a2 = uop.reshape %af, [64, 1, 64] : tensor<4096xf32>
  %ae = uop.expand %a2, [64, 64, 64] : tensor<64x1x64xf32>
  %b2 = uop.reshape %bf, [64, 64] : tensor<4096xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<64x64xf32>
  %b3 = uop.reshape %bt, [1, 64, 64] : tensor<64x64xf32>
  %be = uop.expand %b3, [64, 64, 64] : tensor<1x64x64xf32>
  %m = uop.mul %ae, %be : tensor<64x64x64xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<64x64x64xf32>
  return %c : tensor<64x64xf32>
}
