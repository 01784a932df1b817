//===- GpuOptCandidates.h - What a GPU search times -----------------*- C++ -*-===//
//
// The alternatives to uop-hand-opt's choice that the GPU search
// (lib/ExecutionEngine/GpuSearch.cpp) compiles and times for a kernel on a
// cuda #uop.target: the staged CUDA-core GEMM's and the tensor-core GEMM's (mma.sync;
// on sm_90a also wgmma's n and stages) other block tiles and stages, and for every other kernel the hand rule
// with other block budgets. Every one is an opt uop-lower-gemm or the
// linearizer applies to the kernel; the hand's own choice is not among them.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_TRANSFORMS_GPUOPTCANDIDATES_H
#define UOP_TRANSFORMS_GPUOPTCANDIDATES_H

#include "Uop/IR/UopAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::uop {

SmallVector<OptsAttr> getGpuOptCandidates(func::FuncOp kernel, TargetAttr target);

} // namespace mlir::uop

#endif // UOP_TRANSFORMS_GPUOPTCANDIDATES_H
