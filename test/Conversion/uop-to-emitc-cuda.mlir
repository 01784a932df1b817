// RUN: uop-opt %s -uop-to-emitc=cuda=true | FileCheck %s
// RUN: uop-opt %s -uop-to-emitc=cuda=true | uop-translate --mlir-to-cpp | FileCheck %s --check-prefix=CUDA

// CHECK-LABEL: emitc.func @kernel
// CHECK-SAME: specifiers = ["extern \22C\22", "__global__", "__launch_bounds__(64)"]
// CHECK: verbatim "__shared__ float smem0[64];"
// CHECK: %[[SMEM:.*]] = literal "smem0" : !emitc.ptr<f32>
// CHECK: literal "threadIdx.x"
// CHECK: call_opaque "__syncthreads"()
// CHECK-LABEL: emitc.func @uop_main
// CHECK: call_opaque "kernel<<<dim3(2, 1, 1), dim3(64, 1, 1)>>>"

// CUDA C: a gpu.func kernel is `extern "C" __global__` with its block's
// __launch_bounds__, its workgroup memory __shared__ arrays, the ids
// CUDA's, a barrier __syncthreads(); the host's launch a <<<grid, block>>>
// call.
// CUDA:       /* kernel: v1 = data0 (128 x float) */
// CUDA-NEXT:  extern "C" __global__ __launch_bounds__(64) void kernel(float* __restrict__ v1) {
// CUDA-NEXT:    __shared__ float smem0[64];
// CUDA-NEXT:    int32_t v2 = (int32_t) threadIdx.x;
// CUDA-NEXT:    int32_t v3 = (int32_t) blockIdx.x * 64 + v2;
// CUDA-NEXT:    float v4 = v1[v3];
// CUDA-NEXT:    smem0[v2] = v4;
// CUDA-NEXT:    __syncthreads();
// CUDA-NEXT:    int32_t v5 = 63 - v2;
// CUDA-NEXT:    float v6 = smem0[v5];
// CUDA-NEXT:    v1[v3] = v6;
// CUDA-NEXT:    return;
// CUDA-LABEL: extern "C" void uop_main(float* __restrict__ v1) {
// CUDA-NEXT:    kernel<<<dim3(2, 1, 1), dim3(64, 1, 1)>>>(v1);
module attributes {gpu.container_module} {
  func.func @main(%a: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @uop_kernels::@main blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<128xf32>)
    return
  }
  gpu.module @uop_kernels {
    gpu.func @main(%a: memref<128xf32>) workgroup(%s : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, uop.kernel, uop.slots = array<i64: 0>} {
      %c64_i32 = arith.constant 64 : i32
      %c63_i32 = arith.constant 63 : i32
      %tid = gpu.thread_id x
      %t = arith.index_cast %tid : index to i32
      %bid = gpu.block_id x
      %b = arith.index_cast %bid : index to i32
      %bb = arith.muli %b, %c64_i32 overflow<nsw> : i32
      %g = arith.addi %bb, %t overflow<nsw> : i32
      %gi = arith.index_cast %g : i32 to index
      %x = memref.load %a[%gi] : memref<128xf32>
      %ti = arith.index_cast %t : i32 to index
      memref.store %x, %s[%ti] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c63_i32, %t overflow<nsw> : i32
      %ri = arith.index_cast %r : i32 to index
      %y = memref.load %s[%ri] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %y, %a[%gi] : memref<128xf32>
      gpu.return
    }
  }
}
