// Hopper's warpgroup MMA fed by TMA (uop-lower-gemm's warpgroup `tc`, the
// sm_90a GEMM), run on the CPU by --target=emulate --chip=sm_90a: C (f32) =
// A[8:136] @ B, A f16 136x256 read from its row 8 (an offset view: the
// tensor map starts 2048 elements in), B f16 256x256 stored K x N (wgmma's
// MN-major B, four 64x64 boxes a stage). The TMA loads write their boxes
// with the 128-byte swizzle, the wgmmas read them back through it, each
// thread adds to the accumulator elements its lane holds and stores them
// where nvgpu.warpgroup.mma.store does (uop-emulate-mma): a wrong view,
// coordinate, descriptor, fragment or store offset is a wrong result.
// First the hand's choice (2 warpgroups of 64x256, 4 stages: the 4 steps of
// K loaded up front); then pinned opts: one warpgroup of two 64x128
// instruction tiles, 2 stages (the stages refilled as the loop goes), two
// blocks along N. Checked against numpy.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npy random %t/a.npy float16 34816 1
// RUN: %npy random %t/b.npy float16 65536 2
// RUN: uop-run %s --target=emulate --chip=sm_90a --print-plan --input 0=%t/a.npy --input 1=%t/b.npy --output %t/c.npy | FileCheck %s --check-prefix=HAND
// RUN: %npy check %t/c.npy "load('%t/a.npy').astype(np.float64).reshape(136, 256)[8:136] @ load('%t/b.npy').astype(np.float64).reshape(256, 256)" 1e-4
// RUN: sed 's/@main() -> tensor<128x256xf32> {/@main() -> tensor<128x256xf32> attributes {uop.opts = #uop.opts<upcast = {0: 2}, unroll = 4, gpu, stages = 2, tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>>} {/' %s > %t/pinned.mlir
// RUN: uop-run %t/pinned.mlir --target=emulate --chip=sm_90a --print-plan --input 0=%t/a.npy --input 1=%t/b.npy --output %t/c2.npy | FileCheck %s --check-prefix=PINNED
// RUN: %npy check %t/c2.npy "load('%t/a.npy').astype(np.float64).reshape(136, 256)[8:136] @ load('%t/b.npy').astype(np.float64).reshape(256, 256)" 1e-4
// HAND: kernel r_128_256: 1 launch(es)
// HAND-SAME: local = {0: 2}, stages = 4, tc = #uop.mma<m = 64, n = 256, k = 16, a = f16, c = f32, warpgroup = true>
// PINNED: kernel r_128_256: 1 launch(es)
// PINNED-SAME: upcast = {0: 2}, unroll = 4, gpu, stages = 2, tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>
func.func @main() -> tensor<128x256xf32> {
  %a = uop.buffer 0 : tensor<34816xf16>
  %af = uop.cast %a : tensor<34816xf16> to f32
  %a1 = uop.reshape %af, [136, 256] : tensor<34816xf32>
  %as = uop.shrink %a1 [8:136, 0:256] : tensor<136x256xf32>
  %a2 = uop.reshape %as, [128, 1, 256] : tensor<128x256xf32>
  %ae = uop.expand %a2, [128, 256, 256] : tensor<128x1x256xf32>
  %b = uop.buffer 1 : tensor<65536xf16>
  %bf = uop.cast %b : tensor<65536xf16> to f32
  %b2 = uop.reshape %bf, [256, 256] : tensor<65536xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<256x256xf32>
  %b3 = uop.reshape %bt, [1, 256, 256] : tensor<256x256xf32>
  %be = uop.expand %b3, [128, 256, 256] : tensor<1x256x256xf32>
  %m = uop.mul %ae, %be : tensor<128x256x256xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<128x256x256xf32>
  return %c : tensor<128x256xf32>
}
