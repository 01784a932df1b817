// RUN: uop-opt %s --split-input-file --uop-lower-gemm | FileCheck %s
//
// uop-lower-gemm with a warpgroup `tc` (Hopper's wgmma fed by TMA, sm_90a):
// 2 warpgroups (local = {0: 2}) of 64 x 256 each (the instruction's n), a
// 128x256 block tile, 64 of K a stage (unroll = 4: one 128-byte swizzled row
// of f16), 3 stages of TMA loads on mbarriers, thread 0 the producer.

// CHECK-LABEL: func.func private @r_256_512
// CHECK-SAME: (%{{.*}}: memref<65536xf16>, %{{.*}}: memref<131072xf16>, %[[C:.*]]: memref<131072xf32>)
// The tensor maps the runtime encodes: A (256 x 256 of K, box 64 x 128 rows)
// and B (256 of K x 512, boxes of 64 x 64), 128-byte swizzle, rows in bytes.
// CHECK-SAME: uop.tma = [{box = array<i64: 64, 128>, dims = array<i64: 256, 256>, offset = 0 : i64, param = 0 : i64, stride = 512 : i64, swizzle = 128 : i64, type = f16}, {box = array<i64: 64, 64>, dims = array<i64: 512, 256>, offset = 0 : i64, param = 1 : i64, stride = 1024 : i64, swizzle = 128 : i64, type = f16}]
// 3 stages of 16 KiB of A and 32 KiB of B, 1024-byte aligned (the swizzle's period).
// CHECK: memref.alloca() {alignment = 1024 : i64} : memref<147456xi8, #gpu.address_space<workgroup>>
// 4 blocks of 256 threads (2 warpgroups).
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c4) step
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256{{.*}}) step
// The tensor maps are placeholders until they are kernel parameters.
// CHECK: %[[TA:.*]] = builtin.unrealized_conversion_cast to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, {{.*}}> {uop.tma = 0 : i64}
// CHECK: %[[TB:.*]] = builtin.unrealized_conversion_cast to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, {{.*}}> {uop.tma = 1 : i64}
// CHECK: %[[BAR:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK-COUNT-3: nvgpu.mbarrier.init %[[BAR]]
// CHECK: nvgpu.tma.prefetch.descriptor %[[TA]]
// CHECK: gpu.barrier
// The prologue: 3 stages, each its bytes expected and A's box and B's 4 boxes.
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%{{.*}}], %c49152
// CHECK: nvgpu.tma.async.load %[[TA]][%{{.*}}, %{{.*}}], %[[BAR]][%{{.*}}] to %{{.*}} : {{.*}} -> memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: nvgpu.tma.async.load %[[TB]]
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK: nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x256xf32>>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>)
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BAR]]
// CHECK: %[[DA:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[TA]] : memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK: %[[DB:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[TB]] : memref<64x256xf16, #gpu.address_space<workgroup>>
// B stored K x N: wgmma's transposed B; this step's group stays in flight.
// CHECK: nvgpu.warpgroup.mma %[[DA]], %[[DB]], %[[ACC]] {transposeB}
// The previous step's stage is refilled once every warpgroup is past it.
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK: nvgpu.tma.async.load %[[TA]]
// CHECK: scf.yield
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// warpgroup.mma.store puts rows 16 x (thread id / 32) down: the second
// warpgroup's view of C starts 64 rows (64 x 512) higher.
// CHECK: %[[UP:.*]] = arith.muli %{{.*}}, %c-32768 : index
// CHECK: %[[AT:.*]] = arith.addi %{{.*}}, %[[UP]] : index
// CHECK: %[[TILE:.*]] = memref.reinterpret_cast %[[C]] to offset: [%[[AT]]], sizes: [64, 256], strides: [512, 1]
// CHECK: nvgpu.warpgroup.mma.store %{{.*}}, %[[TILE]]
func.func private @r_256_512() -> tensor<256x512xf32> attributes {uop.kernel, uop.opts = #uop.opts<unroll = 4, gpu, local = {0: 2}, stages = 3, tc = #uop.mma<m = 64, n = 256, k = 16, a = f16, c = f32, warpgroup = true>>} {
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

// One warpgroup of 2 x 64 rows by 128 (a 128x128 tile), 2 stages.
// CHECK-LABEL: func.func private @one_warpgroup
// CHECK: memref.alloca() {alignment = 1024 : i64} : memref<65536xi8, #gpu.address_space<workgroup>>
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c128{{.*}}) step
// CHECK-COUNT-2: nvgpu.tma.async.load %{{.*}} -> memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %{{.*}} {transposeB} : <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>, <tensor = memref<64x128xf16, #gpu.address_space<workgroup>>>, <fragmented = vector<128x128xf32>>
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

// B^T (B stored N x K: K-major, as A): B's boxes are n rows of 64 of K, and
// each 16-wide step is its own nvgpu.warpgroup.mma from descriptors 32 bytes
// apart (nvgpu.warpgroup.mma steps only an MN-major B along K); the last
// waits until this step's 4 groups alone are in flight.
// CHECK-LABEL: func.func private @bt
// CHECK-SAME: {box = array<i64: 64, 128>, dims = array<i64: 256, 128>, offset = 0 : i64, param = 1 : i64, stride = 512 : i64, swizzle = 128 : i64, type = f16}
// CHECK: nvgpu.tma.async.load %{{.*}} -> memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %{{.*}} {waitGroup = 7 : i64} : <tensor = memref<64x16xf16, #gpu.address_space<workgroup>>>, <tensor = memref<16x128xf16, #gpu.address_space<workgroup>>>, <fragmented = vector<64x128xf32>>
// CHECK: nvgpu.warpgroup.mma {{.*}} {waitGroup = 7 : i64}
// CHECK: nvgpu.warpgroup.mma {{.*}} {waitGroup = 7 : i64}
// CHECK: nvgpu.warpgroup.mma {{.*}} {waitGroup = 4 : i64}
// CHECK-NOT: nvgpu.warpgroup.mma {{.*}}transposeB
// CHECK: gpu.barrier
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
