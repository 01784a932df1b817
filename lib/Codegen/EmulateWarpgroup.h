//===- EmulateWarpgroup.h - Hopper's wgmma and TMA on the CPU -----*- C++ -*-===//
//
// uop-emulate-mma's part for sm_90a kernels (uop-lower-gemm's warpgroup
// GEMM): TMA loads, warpgroup MMAs and their mbarriers as per-thread code
// that uop-emulate-gpu runs on the CPU.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_CODEGEN_EMULATEWARPGROUP_H
#define UOP_LIB_CODEGEN_EMULATEWARPGROUP_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::uop {

/// The LOCAL (thread) loop around `op`, one-dimensional from 0 with a
/// constant end that is a multiple of 32 (whole warps), and that end; an
/// error at `op` otherwise.
FailureOr<std::pair<scf::ParallelOp, int64_t>> emulatedThreadLoop(Operation *op);

/// Rewrites the Hopper ops of `func` for the CPU, as the hardware does them:
///   * `nvgpu.tma.async.load`: the box the kernel's `uop.tma` entry names,
///     copied by the issuing thread from the global buffer into shared
///     memory with the map's 128-byte swizzle (out-of-bounds elements zero);
///   * `nvgpu.warpgroup.mma`: each thread adds to the accumulator elements
///     its lane holds (wgmma's fragment layout, by its warp's rank in the
///     warpgroup) the products of A and B read through the descriptors'
///     swizzled layout; the accumulators live in workgroup memory, a slot a
///     warpgroup, and the accumulator values become loop-invariant;
///   * `nvgpu.warpgroup.mma.store`: each thread stores its elements where
///     the op's lowering does (rows by the warp's index in the block);
///   * mbarriers, tensor-map prefetches and wgmma waits: nothing (a copy is
///     complete when it is issued).
/// A kernel without them is left as it is.
LogicalResult emulateWarpgroupOps(func::FuncOp func);

} // namespace mlir::uop

#endif // UOP_LIB_CODEGEN_EMULATEWARPGROUP_H
