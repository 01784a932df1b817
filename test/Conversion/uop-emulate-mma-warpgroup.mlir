// RUN: uop-opt %s --split-input-file --uop-lower-gemm --uop-emulate-mma --canonicalize --cse | FileCheck %s
// RUN: uop-opt %s --split-input-file --uop-lower-gemm --uop-emulate-mma --uop-emulate-gpu | FileCheck %s --check-prefix=GPU
// A kernel whose `uop.tma` (what the runtime would encode) is gone: its TMA
// loads have no box to copy, an error at the load.
// RUN: uop-opt %s --split-input-file --uop-lower-gemm | sed 's/, uop.tma = \[[^]]*\]//' | not uop-opt --split-input-file --uop-emulate-mma 2>&1 | FileCheck %s --check-prefix=ERR
// ERR-COUNT-2: error: 'nvgpu.tma.async.load' op uop-emulate-mma: a TMA load of a tensor map the kernel does not describe (its uop.tma attribute)
//
// uop-emulate-mma on Hopper's warpgroup GEMM (uop-lower-gemm's warpgroup
// `tc`): one warpgroup of two 64x128 instruction tiles, 2 stages over 2 steps
// of K. The TMA loads become the issuing thread's copies of their boxes (A's
// 128 x 64, B's two 64 x 64) into the f16 elements of the stages' buffer at
// the 128-byte-swizzled byte (x ^ ((x / 128) % 8) * 16); the accumulators a
// workgroup slot a warpgroup (1 x 128 x 128 f32), zeroed and summed by each
// thread at the elements its lane holds (row 64 t + 16 (warp % 4) + lane / 4
// + 8 i, column 8 j + 2 (lane % 4) + h); the main loop carries nothing (the
// accumulator went to workgroup memory), so uop-emulate-gpu splits it at its
// barrier; the store puts rows at 16 x the warp's index in the block. No
// nvgpu op, mbarrier, wgmma wait or tensor map is left.
// CHECK-LABEL: func.func private @one_warpgroup
// CHECK-NOT: uop.tma
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<1x128x128xf32, #gpu.address_space<workgroup>>
// CHECK: %[[SMEM:.*]] = memref.alloca() {alignment = 1024 : i64} : memref<65536xi8, #gpu.address_space<workgroup>>
// CHECK: %[[HALVES:.*]] = memref.view %[[SMEM]][%{{.*}}][] : memref<65536xi8, #gpu.address_space<workgroup>> to memref<32768xf16, #gpu.address_space<workgroup>>
// CHECK: scf.parallel (%[[TID:.*]]) =
// The prologue's loads: A's box (128 rows of 64), B's two boxes.
// CHECK: scf.if
// CHECK: scf.for %{{.*}} = %c0 to %c128
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c64
// CHECK: memref.load %arg0
// CHECK: arith.xori
// CHECK: memref.store %{{.*}}, %[[HALVES]]
// CHECK: memref.load %arg1
// CHECK: memref.load %arg1
// The accumulator elements of the thread, zeroed.
// CHECK: %[[WG:.*]] = arith.divui %[[TID]], %c128
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %c32
// CHECK: %[[RANK:.*]] = arith.remui %[[WARP]], %c4
// CHECK: memref.store %cst, %[[ACC]][%[[WG]], %{{.*}}, %{{.*}}]
// The main loop: no iteration arguments.
// CHECK: scf.for %{{[a-z0-9]+}} = %c0 to %c2 step %c1 {
// CHECK: %[[SUM0:.*]] = memref.load %[[ACC]][%[[WG]], %{{.*}}, %{{.*}}]
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%{{.*}} = %[[SUM0]]) -> (f32) {
// CHECK: arith.xori
// CHECK: memref.load %[[HALVES]]
// CHECK: arith.xori
// CHECK: memref.load %[[HALVES]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[ACC]][%[[WG]], %{{.*}}, %{{.*}}]
// CHECK: gpu.barrier
// The store: the warp's index in the block (16 x tid / 32).
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %arg2
// CHECK: arith.muli %[[WARP]], %c16
// CHECK: memref.load %[[ACC]]
// CHECK: memref.store %{{.*}}, %[[VIEW]]
// CHECK-NOT: nvgpu.
// CHECK-NOT: nvvm.
// CHECK: return
// GPU-LABEL: func.func private @one_warpgroup
// GPU-NOT: gpu.barrier
// GPU-NOT: nvgpu.
// GPU: return
func.func private @one_warpgroup() -> tensor<128x128xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 2}, unroll = 4, gpu, stages = 2, tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>>} {
  %a = uop.buffer 0 : tensor<16384xf16>
  %b = uop.buffer 1 : tensor<16384xf16>
  %af = uop.cast %a : tensor<16384xf16> to f32
  %bf = uop.cast %b : tensor<16384xf16> to f32
  %a2 = uop.reshape %af, [128, 1, 128] : tensor<16384xf32>
  %ae = uop.expand %a2, [128, 128, 128] : tensor<128x1x128xf32>
  %b2 = uop.reshape %bf, [128, 128] : tensor<16384xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<128x128xf32>
  %b3 = uop.reshape %bt, [1, 128, 128] : tensor<128x128xf32>
  %be = uop.expand %b3, [128, 128, 128] : tensor<1x128x128xf32>
  %m = uop.mul %ae, %be : tensor<128x128x128xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<128x128x128xf32>
  return %c : tensor<128x128xf32>
}

// -----

// B^T (B stored N x K): B is K-major, read a 128-byte row a column of C; each
// 16-wide step of K is one op, 16 products a thread an element.
// CHECK-LABEL: func.func private @bt
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args
// CHECK-NOT: nvgpu.
// CHECK: return
func.func private @bt() -> tensor<256x128xf32> attributes {uop.kernel, uop.opts = #uop.opts<unroll = 4, gpu, local = {0: 2}, stages = 2, tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>>} {
  %a = uop.buffer 0 : tensor<65536xf16>
  %b = uop.buffer 1 : tensor<32768xf16>
  %af = uop.cast %a : tensor<65536xf16> to f32
  %bf = uop.cast %b : tensor<32768xf16> to f32
  %a2 = uop.reshape %af, [256, 1, 256] : tensor<65536xf32>
  %ae = uop.expand %a2, [256, 128, 256] : tensor<256x1x256xf32>
  %b3 = uop.reshape %bf, [1, 128, 256] : tensor<32768xf32>
  %be = uop.expand %b3, [256, 128, 256] : tensor<1x128x256xf32>
  %m = uop.mul %ae, %be : tensor<256x128x256xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<256x128x256xf32>
  return %c : tensor<256x128xf32>
}
