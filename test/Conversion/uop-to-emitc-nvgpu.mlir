// RUN: uop-opt %s -uop-to-emitc=cuda=true | uop-translate --mlir-to-cpp | FileCheck %s

// The tensor-core ops of uop-lower-gemm in CUDA C: each one PTX instruction
// in a prelude helper (CUTLASS's inline asm), the fragments uop_vec<T, N>
// with the vector's elements row-major; the block's dynamic shared memory
// an `extern __shared__` array, the launch's bytes its third argument.
// CHECK:      #include <cuda_fp16.h>
// CHECK:      template <typename T, int N> struct alignas(
// CHECK:      static __device__ __forceinline__ uop_vec<half, 8> uop_ldmatrix_x4(const void *p) {
// CHECK:        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
// CHECK:      uop_vec<half, 8> uop_ldmatrix_x4_trans(const void *p) {
// CHECK:        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK:      static __device__ __forceinline__ uop_vec<float, 4> uop_mma_m16n8k16(const uop_vec<half, 8> &a, const uop_vec<half, 4> &b, const uop_vec<float, 4> &c) {
// CHECK:        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
// CHECK:      static __device__ __forceinline__ void uop_cp_async_cg(void *dst, const void *src, uint32_t srcBytes) {
// CHECK:        asm volatile("cp.async.cg.shared.global [%0], [%1], %2, %3;\n"
// CHECK:      static __device__ __forceinline__ void uop_cp_async_ca(
// CHECK:        asm volatile("cp.async.commit_group;\n" ::: "memory");
// CHECK:        asm volatile("cp.async.wait_group %0;\n" :: "n"(N) : "memory");
// CHECK-LABEL: extern "C" __global__ __launch_bounds__(32) void tc(
// CHECK-NEXT:   extern __shared__ __align__(1024) int8_t smem_dynamic[];
// CHECK-NEXT:   _Float16* [[S:v[0-9]+]] = (_Float16*) (&smem_dynamic[4096]);
// Index arithmetic on size_t (unsigned, as divui/remui), a signed min
// through ptrdiff_t:
// CHECK:        size_t [[Q:v[0-9]+]] = threadIdx.x / 8;
// CHECK-NEXT:   size_t [[R:v[0-9]+]] = threadIdx.x % 8;
// CHECK-NEXT:   size_t [[X:v[0-9]+]] = [[Q]] ^ [[R]];
// CHECK:        uop_cp_async_cg<16>({{v[0-9]+}}, {{v[0-9]+}}, 16);
// CHECK:        size_t [[N:v[0-9]+]] = (((ptrdiff_t) [[X]] < (ptrdiff_t) 2 ? [[X]] : 2) < 2 ? 8 : 0) * 2;
// CHECK-NEXT:   uop_cp_async_cg<16>({{v[0-9]+}}, {{v[0-9]+}}, [[N]]);
// CHECK:        uop_cp_async_ca<4>({{v[0-9]+}}, {{v[0-9]+}}, 4);
// CHECK-NEXT:   uop_cp_async_commit();
// CHECK-NEXT:   uop_cp_async_wait<1>();
// CHECK-NEXT:   uop_cp_async_wait<0>();
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   uop_vec<_Float16, 8> [[A:v[0-9]+]] = uop_ldmatrix_x4(&[[S]]{{\[}}{{v[0-9]+}}{{\]}});
// CHECK-NEXT:   uop_vec<_Float16, 8> [[B4:v[0-9]+]] = uop_ldmatrix_x4_trans(&[[S]]{{\[}}[[X]]{{\]}});
// Rows 2 and 3 of the B fragment: its elements 4 to 7.
// CHECK-NEXT:   uop_vec<_Float16, 4> [[B:v[0-9]+]] = uop_slice<4>([[B4]], 4);
// CHECK:        uop_vec<float, 4> [[C:v[0-9]+]] = uop_vec_of<float>(
// CHECK-NEXT:   uop_vec<float, 4> [[D:v[0-9]+]] = uop_mma_m16n8k16([[A]], [[B]], [[C]]);
// CHECK-NEXT:   uop_vec<float, 2> [[P:v[0-9]+]] = uop_slice<2>([[D]], 2);
// CHECK-NEXT:   float* [[AT:v[0-9]+]] = &v2[{{v[0-9]+}}];
// CHECK-NEXT:   uop_vec_store([[AT]], [[P]]);
// CHECK-LABEL: extern "C" void uop_main(
// CHECK-NEXT:   cudaFuncSetAttribute(tc, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
// CHECK-NEXT:   tc<<<dim3(1, 1, 1), dim3(32, 1, 1), 65536>>>(v1, v2);
module attributes {gpu.container_module} {
  func.func @main(%a: memref<6144xf16>, %c: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %bytes = arith.constant 65536 : i32
    gpu.launch_func @uop_kernels::@tc blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) dynamic_shared_memory_size %bytes args(%a : memref<6144xf16>, %c : memref<128xf32>)
    return
  }
  gpu.module @uop_kernels {
    gpu.func @tc(%g: memref<6144xf16>, %out: memref<128xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>, uop.kernel, uop.slots = array<i64: 0, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c4096 = arith.constant 4096 : index
      %tid = gpu.thread_id x
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %dyn[%c4096][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<6144xf16, #gpu.address_space<workgroup>>
      %i = arith.muli %tid, %c8 : index
      %q = arith.divui %tid, %c8 : index
      %r = arith.remui %tid, %c8 : index
      %x = arith.xori %q, %r : index
      %m = arith.minsi %x, %c2 : index
      %p = arith.cmpi ult, %m, %c2 : index
      %n = arith.select %p, %c8, %c0 : index
      %t0 = nvgpu.device_async_copy %g[%i], %s[%i], 8 {bypassL1} : memref<6144xf16> to memref<6144xf16, #gpu.address_space<workgroup>>
      %t1 = nvgpu.device_async_copy %g[%x], %s[%x], 8, %n {bypassL1} : memref<6144xf16> to memref<6144xf16, #gpu.address_space<workgroup>>
      %t2 = nvgpu.device_async_copy %g[%x], %s[%x], 2 : memref<6144xf16> to memref<6144xf16, #gpu.address_space<workgroup>>
      %grp = nvgpu.device_async_create_group %t0, %t1, %t2
      nvgpu.device_async_wait %grp {numGroups = 1 : i32}
      nvgpu.device_async_wait %grp
      gpu.barrier
      %fa = nvgpu.ldmatrix %s[%i] {numTiles = 4 : i32, transpose = false} : memref<6144xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %fb = nvgpu.ldmatrix %s[%x] {numTiles = 4 : i32, transpose = true} : memref<6144xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %r2 = vector.extract %fb[2] : vector<2xf16> from vector<4x2xf16>
      %r3 = vector.extract %fb[3] : vector<2xf16> from vector<4x2xf16>
      %e2:2 = vector.to_elements %r2 : vector<2xf16>
      %e3:2 = vector.to_elements %r3 : vector<2xf16>
      %b = vector.from_elements %e2#0, %e2#1, %e3#0, %e3#1 : vector<2x2xf16>
      %x0 = memref.load %out[%c0] : memref<128xf32>
      %x1 = memref.load %out[%c2] : memref<128xf32>
      %x2 = memref.load %out[%c8] : memref<128xf32>
      %x3 = memref.load %out[%tid] : memref<128xf32>
      %acc = vector.from_elements %x0, %x1, %x2, %x3 : vector<2x2xf32>
      %d = nvgpu.mma.sync(%fa, %b, %acc) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %d10 = vector.extract %d[1, 0] : f32 from vector<2x2xf32>
      %d11 = vector.extract %d[1, 1] : f32 from vector<2x2xf32>
      %pair = vector.from_elements %d10, %d11 : vector<2xf32>
      vector.store %pair, %out[%i] : memref<128xf32>, vector<2xf32>
      gpu.return
    }
  }
}

