// A Hopper GEMM step as uop-lower-gemm would write it for `warpgroup` mma (issue 30 §1, not built
// yet): one warpgroup, a 128x128 tile of C in f32 accumulators, A (128x64) and B (64x128) tiles of
// f16 loaded by TMA (nvgpu.tma.async.load on an mbarrier with its transaction count) into 2 stages
// of dynamic shared memory (128-byte swizzle), then nvgpu.warpgroup.mma (wgmma m64n128k16, 8 of
// them a step) from shared-memory matrix descriptors, and nvgpu.warpgroup.mma.store.
//
// What this file establishes (2026-12-03, LLVM/MLIR 22 here, ptxas 13.0 -arch=sm_90a: 154
// registers, no spills): the descriptors can travel as plain pointers (a kernel's .u64 parameter,
// `llvm.inttoptr` + `unrealized_conversion_cast` to !nvgpu.tensormap.descriptor: the runtime would
// build each CUtensorMap with cuTensorMapEncodeTiled and copy it to device memory, as MLIR's mgpu
// wrappers do; gpu.func arguments of the tensormap type itself are not converted by
// convert-gpu-to-nvvm); convert-nvgpu-to-nvvm must run before convert-scf-to-cf (the accumulator
// loop's block arguments are otherwise left unconverted, uop's CUDA pipeline has the other order);
// expand-strided-metadata leaves affine.apply: lower-affine before convert-gpu-to-nvvm.
//
//   mlir-opt bench/gpu/wgmma-prototype.mlir --pass-pipeline='builtin.module(gpu.module(
//     convert-nvgpu-to-nvvm,convert-scf-to-cf,expand-strided-metadata,lower-affine,
//     convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},convert-nvvm-to-llvm,canonicalize,cse,
//     reconcile-unrealized-casts),gpu-module-to-binary{format=isa})'
//
// Not run on a GPU; the epilogue (accumulators to C) is left out.
!barrierType = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!lhsTensorMap = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo=none, oob=zero, interleave=none>
!rhsTensorMap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo=none, oob=zero, interleave=none>
module attributes {gpu.container_module} {
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @wg(%iA: i64, %iB: i64, %out: memref<16384xf32>) kernel {
    %pA = llvm.inttoptr %iA : i64 to !llvm.ptr
    %pB = llvm.inttoptr %iB : i64 to !llvm.ptr
    %descA = builtin.unrealized_conversion_cast %pA : !llvm.ptr to !lhsTensorMap
    %descB = builtin.unrealized_conversion_cast %pB : !llvm.ptr to !rhsTensorMap
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %txcount = arith.constant 32768 : index
    %tidx = gpu.thread_id x
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %lhs = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x128x64xf16, #gpu.address_space<workgroup>>
    %off = arith.constant 32768 : index
    %rhs = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x128xf16, #gpu.address_space<workgroup>>
    %barrier = nvgpu.mbarrier.create -> !barrierType
    %cnd = arith.cmpi eq, %tidx, %c0 : index
    nvgpu.mbarrier.init %barrier[%c0], %c1 : !barrierType
    nvgpu.mbarrier.init %barrier[%c1], %c1 : !barrierType
    nvgpu.tma.prefetch.descriptor %descA : !lhsTensorMap
    scf.if %cnd {
      %lhsSlice = memref.subview %lhs[0, 0, 0][1, 128, 64][1, 1, 1] : memref<2x128x64xf16, #gpu.address_space<workgroup>> to memref<128x64xf16, #gpu.address_space<workgroup>>
      %rhsSlice = memref.subview %rhs[0, 0, 0][1, 64, 64][1, 1, 1] : memref<2x64x128xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[128, 1]>, #gpu.address_space<workgroup>>
      nvgpu.mbarrier.arrive.expect_tx %barrier[%c0], %txcount : !barrierType
      nvgpu.tma.async.load %descA[%c0, %c0], %barrier[%c0] to %lhsSlice : !lhsTensorMap, !barrierType -> memref<128x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %descB[%c0, %c0], %barrier[%c0] to %rhsSlice : !rhsTensorMap, !barrierType -> memref<64x64xf16, strided<[128, 1]>, #gpu.address_space<workgroup>>
    }
    %acc0 = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x128xf32>>
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%mc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
      %ticks = arith.constant 10000000 : index
      %f = arith.constant false
      nvgpu.mbarrier.try_wait.parity %barrier[%i], %f, %ticks : !barrierType
      %lhsSlice = memref.subview %lhs[%i, 0, 0][1, 128, 64][1, 1, 1] : memref<2x128x64xf16, #gpu.address_space<workgroup>> to memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %rhsSlice = memref.subview %rhs[%i, 0, 0][1, 64, 128][1, 1, 1] : memref<2x64x128xf16, #gpu.address_space<workgroup>> to memref<64x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
      %dA = nvgpu.warpgroup.generate.descriptor %lhsSlice, %descA : memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>, !lhsTensorMap -> !nvgpu.warpgroup.descriptor<tensor=memref<128x64xf16, 3>>
      %dB = nvgpu.warpgroup.generate.descriptor %rhsSlice, %descB : memref<64x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>, !rhsTensorMap -> !nvgpu.warpgroup.descriptor<tensor=memref<64x128xf16, 3>>
      %md = nvgpu.warpgroup.mma %dA, %dB, %mc {transposeB} : <tensor = memref<128x64xf16,3>>, <tensor = memref<64x128xf16,3>>, <fragmented = vector<128x128xf32>> -> <fragmented = vector<128x128xf32>>
      scf.yield %md : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
    }
    nvvm.wgmma.wait.group.sync.aligned 0
    %accView = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x128xf32, #gpu.address_space<workgroup>>
    nvgpu.warpgroup.mma.store %r, %accView : <fragmented = vector<128x128xf32>> to memref<128x128xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
}
