// RUN: uop-opt %s --split-input-file --uop-lower-gemm | FileCheck %s
//
// uop-lower-gemm on CUDA cores: an f32 GEMM whose opts ask for shared-memory
// `stages` without a tensor-core instruction. 8x8 threads of 4x8 outputs (a
// 32x64 block tile, a 2x2 grid for 64x128), BK = 8 along K a stage, 3
// stages: the tiles of A (32x8) and B (8x64) copied by cp.async 16 bytes
// (4 floats) a copy, one group a step; each thread reads its 4 rows of A
// four k at a time and its two chunks of 4 columns of B for each k (16-byte
// shared loads), and accumulates 32 FMAs a k in registers.

// CHECK-LABEL: func.func private @r_64_128
// CHECK-SAME: (%[[A:.*]]: memref<4096xf32>, %[[B:.*]]: memref<8192xf32>, %[[C:.*]]: memref<8192xf32>)
// CHECK-SAME: uop.output_shape = array<i64: 64, 128>, uop.output_slot = 2 : i64, uop.slots = array<i64: 0, 1, 2>
// 3 stages of 32x8 (A) and 8x64 (B) f32 tiles.
// CHECK: %[[SA:.*]] = memref.alloca() {alignment = 128 : i64} : memref<768xf32, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = memref.alloca() {alignment = 128 : i64} : memref<1536xf32, #gpu.address_space<workgroup>>
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c4) step
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c64{{.*}}) step
// CHECK: memref.alloca() : memref<32xf32>
// The prologue: 2 steps in flight, a copy of A and two of B a thread each.
// CHECK: %[[CA:.*]] = nvgpu.device_async_copy %[[A]][%{{.*}}], %[[SA]][%{{.*}}], 4 {bypassL1}
// CHECK: %[[CB:.*]] = nvgpu.device_async_copy %[[B]][%{{.*}}], %[[SB]][%{{.*}}], 4 {bypassL1}
// CHECK: %[[CB2:.*]] = nvgpu.device_async_copy %[[B]][%{{.*}}], %[[SB]][%{{.*}}], 4 {bypassL1}
// CHECK: nvgpu.device_async_create_group %[[CA]], %[[CB]], %[[CB2]]
// CHECK: %[[G1:.*]] = nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_wait %[[G1]] {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// The main loop over K / BK = 8 steps: the copies of step + 2 (no bytes
// past the last step), one group, then the step's compute.
// CHECK: scf.for %{{.*}} = %{{.*}} to %c8{{.*}} step
// CHECK: nvgpu.device_async_copy %[[A]][%{{.*}}], %[[SA]][%{{.*}}], 4, %[[N:.*]] {bypassL1}
// CHECK: nvgpu.device_async_copy %[[B]][%{{.*}}], %[[SB]][%{{.*}}], 4, %[[N]] {bypassL1}
// CHECK: %[[G:.*]] = nvgpu.device_async_create_group
// Four k at a time: the thread's 4 rows of A (a 16-byte load each), then for
// each k its 2 chunks of B and 4 x 8 FMAs.
// CHECK-COUNT-4: vector.load %[[SA]][%{{.*}}] {alignment = 16 : i64} : memref<768xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-COUNT-2: vector.load %[[SB]][%{{.*}}] {alignment = 16 : i64} : memref<1536xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-COUNT-32: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NOT: math.fma
// CHECK: vector.load %[[SB]]
// CHECK: nvgpu.device_async_wait %[[G]] {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// The epilogue: 4 rows x 2 chunks of 4 columns, 16-byte stores.
// CHECK-COUNT-8: vector.store %{{.*}}, %[[C]][%{{.*}}] {alignment = 16 : i64} : memref<8192xf32>, vector<4xf32>
// CHECK-NOT: vector.store
func.func private @r_64_128() -> tensor<64x128xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 4, 1: 8}, unroll = 8, gpu, local = {0: 8, 1: 8}, stages = 3>} {
  %a = uop.buffer 0 : tensor<4096xf32>
  %b = uop.buffer 1 : tensor<8192xf32>
  %a2 = uop.reshape %a, [64, 1, 64] : tensor<4096xf32>
  %ae = uop.expand %a2, [64, 128, 64] : tensor<64x1x64xf32>
  %b2 = uop.reshape %b, [64, 128] : tensor<8192xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<64x128xf32>
  %b3 = uop.reshape %bt, [1, 128, 64] : tensor<128x64xf32>
  %be = uop.expand %b3, [64, 128, 64] : tensor<1x128x64xf32>
  %m = uop.mul %ae, %be : tensor<64x128x64xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<64x128x64xf32>
  return %c : tensor<64x128xf32>
}

// -----

// The f32 sums rounded to f16 at the store (a cast after the reduce): 8-byte
// stores of 4 halves.
// CHECK-LABEL: func.func private @r_32_32_f16
// CHECK-SAME: %{{.*}}: memref<1024xf16>
// CHECK: arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<1024xf16>, vector<4xf16>
func.func private @r_32_32_f16() -> tensor<32x32xf16> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 4, 1: 8}, unroll = 4, gpu, local = {0: 8, 1: 4}, stages = 2>} {
  %a = uop.buffer 0 : tensor<1024xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a2 = uop.reshape %a, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %b2 = uop.reshape %b, [32, 32] : tensor<1024xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<32x32xf32>
  %b3 = uop.reshape %bt, [1, 32, 32] : tensor<32x32xf32>
  %be = uop.expand %b3, [32, 32, 32] : tensor<1x32x32xf32>
  %m = uop.mul %ae, %be : tensor<32x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf32>
  %h = uop.cast %c : tensor<32x32xf32> to f16
  return %h : tensor<32x32xf16>
}
