// RUN: uop-opt %s --split-input-file --uop-lower-gemm | FileCheck %s
//
// uop-lower-gemm: a GEMM kernel with a tensor-core opt (`tc`) becomes the GPU
// loops of a block tile: 2x2 warps of 1x2 m16n8k16 instructions (a 32x32
// block tile of C), 2 instruction steps along K a stage (BK = 32), 3 stages
// of shared memory filled by cp.async (nvgpu.device_async_copy), fragments
// loaded by ldmatrix and accumulated by mma.sync in f32. The seed's
// test_wmma asks that its wmma_gemm contain `mma_sync`; this is the same
// kernel written in the nvgpu dialect.

// CHECK-LABEL: func.func private @r_64_64
// The kernel takes its buffers (A, B, C) as uop-linearize makes them.
// CHECK-SAME: (%[[A:.*]]: memref<4096xf16>, %[[B:.*]]: memref<4096xf16>, %[[C:.*]]: memref<4096xf32>)
// CHECK-SAME: uop.output_shape = array<i64: 64, 64>, uop.output_slot = 2 : i64, uop.slots = array<i64: 0, 1, 2>
// 3 stages of 32x32 f16 tiles of A and of B, 128-byte aligned.
// CHECK: %[[SA:.*]] = memref.alloca() {alignment = 128 : i64} : memref<3072xf16, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = memref.alloca() {alignment = 128 : i64} : memref<3072xf16, #gpu.address_space<workgroup>>
// A 2x2 grid of blocks, 128 threads (4 warps) each.
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c4) step
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c128) step
// Each thread's 2 instruction tiles of accumulators (2 x 4 f32).
// CHECK: memref.alloca() : memref<8xf32>
// The prologue: stages - 1 = 2 steps in flight, one commit group each.
// CHECK: %[[CA:.*]] = nvgpu.device_async_copy %[[A]][%{{.*}}], %[[SA]][%{{.*}}], 8 {bypassL1}
// CHECK: %[[CB:.*]] = nvgpu.device_async_copy %[[B]][%{{.*}}], %[[SB]][%{{.*}}], 8 {bypassL1}
// CHECK: nvgpu.device_async_create_group %[[CA]], %[[CB]]
// CHECK: nvgpu.device_async_copy %[[A]]
// CHECK: nvgpu.device_async_copy %[[B]]
// CHECK: %[[G1:.*]] = nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_wait %[[G1]] {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// The main loop over K / BK = 2 steps: the copies of step + 2 (no bytes past
// the last step: a fourth operand, cp.async's src-size), one group.
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2{{.*}} step
// CHECK: nvgpu.device_async_copy %[[A]][%{{.*}}], %[[SA]][%{{.*}}], 8, %[[N:.*]] {bypassL1}
// CHECK: nvgpu.device_async_copy %[[B]][%{{.*}}], %[[SB]][%{{.*}}], 8, %[[N]] {bypassL1}
// CHECK: %[[G:.*]] = nvgpu.device_async_create_group
// Each instruction step: A's 16x16 fragment (ldmatrix x4), B's two 16x8
// fragments (ldmatrix x4 .trans: B is stored K x N), two mma.sync.
// CHECK: %[[FA:.*]] = nvgpu.ldmatrix %[[SA]][%{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<3072xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %[[SB]][%{{.*}}] {numTiles = 4 : i32, transpose = true}
// CHECK: nvgpu.mma.sync(%[[FA]], %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: nvgpu.mma.sync(%[[FA]], %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]}
// CHECK: nvgpu.ldmatrix %[[SA]]
// CHECK: nvgpu.ldmatrix %[[SB]]
// CHECK: nvgpu.mma.sync
// CHECK: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: nvgpu.device_async_wait %[[G]] {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// The epilogue: each lane's accumulator pairs, two f32 at a time.
// CHECK-COUNT-4: vector.store %{{.*}}, %[[C]][%{{.*}}] : memref<4096xf32>, vector<2xf32>
// CHECK-NOT: vector.store
func.func private @r_64_64() -> tensor<64x64xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 1, 1: 2}, unroll = 2, gpu, local = {0: 2, 1: 2}, stages = 3, tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>} {
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

// -----

// B given as B^T (N x K, rows contiguous along K): ldmatrix without .trans;
// the result cast to f16 (two f32 accumulators truncated per store).
// CHECK-LABEL: func.func private @bt_f16_out
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.mma.sync
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xf16>
// CHECK: vector.store %{{.*}} : memref<1024xf16>, vector<2xf16>
func.func private @bt_f16_out() -> tensor<32x32xf16> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 1, 1: 2}, unroll = 2, gpu, local = {0: 2, 1: 2}, stages = 2, tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>} {
  %a = uop.buffer 0 : tensor<1024xf16>
  %b = uop.buffer 1 : tensor<1024xf16>
  %af = uop.cast %a : tensor<1024xf16> to f32
  %bf = uop.cast %b : tensor<1024xf16> to f32
  %a2 = uop.reshape %af, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %b2 = uop.reshape %bf, [1, 32, 32] : tensor<1024xf32>
  %be = uop.expand %b2, [32, 32, 32] : tensor<1x32x32xf32>
  %m = uop.mul %ae, %be : tensor<32x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf32>
  %h = uop.cast %c : tensor<32x32xf32> to f16
  return %h : tensor<32x32xf16>
}

// -----

// Kernels without `tc` are left to uop-rangeify.
// CHECK-LABEL: func.func private @no_tc
// CHECK-NOT: nvgpu
// CHECK: uop.reduce
func.func private @no_tc() -> tensor<16x16xf32> attributes {uop.kernel, uop.opts = #uop.opts<gpu, local = {0: 16, 1: 16}>} {
  %a = uop.buffer 0 : tensor<256xf32>
  %b = uop.buffer 1 : tensor<256xf32>
  %a2 = uop.reshape %a, [16, 1, 16] : tensor<256xf32>
  %ae = uop.expand %a2, [16, 16, 16] : tensor<16x1x16xf32>
  %b2 = uop.reshape %b, [1, 16, 16] : tensor<256xf32>
  %be = uop.expand %b2, [16, 16, 16] : tensor<1x16x16xf32>
  %m = uop.mul %ae, %be : tensor<16x16x16xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<16x16x16xf32>
  return %c : tensor<16x16xf32>
}
