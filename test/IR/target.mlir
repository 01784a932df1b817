// RUN: uop-opt %s -split-input-file | uop-opt -split-input-file | FileCheck %s
//
// #uop.target round-trips; fields at their default are not printed, the
// parser takes the others in any order.

// CHECK: module attributes {uop.target = #uop.target<cpu, triple = "x86_64-unknown-linux-gnu", cpu = "znver5", features = "+avx2,+avx512f,-amx-tile", vector_bits = 512, vector_registers = 32, cache_line = 64, l1 = 49152, l2 = 1048576, threads = 2>}
module attributes {uop.target = #uop.target<cpu, threads = 2, cpu = "znver5", l2 = 1048576, triple = "x86_64-unknown-linux-gnu", features = "+avx2,+avx512f,-amx-tile", vector_bits = 512, vector_registers = 32, cache_line = 64, l1 = 49152>} {}

// -----

// CHECK: module attributes {uop.target = #uop.target<cuda, chip = "sm_90a", features = "+ptx80", cache_line = 128, warp = 32, max_threads = 1024, max_block = [1024, 1024, 64], max_grid = [2147483647, 65535, 65535], shared_memory = 49152, mma = [#uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>, #uop.mma<m = 64, n = 256, k = 16, a = bf16, c = f32, warpgroup = true>]>}
module attributes {uop.target = #uop.target<cuda, chip = "sm_90a", features = "+ptx80", warp = 32, max_threads = 1024, max_block = [1024, 1024, 64], max_grid = [2147483647, 65535, 65535], shared_memory = 49152, cache_line = 128, mma = [#uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>, #uop.mma<m = 64, n = 256, k = 16, a = bf16, c = f32, warpgroup = true>]>} {}
