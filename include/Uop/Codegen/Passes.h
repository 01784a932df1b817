//===- Passes.h - uop loop-level codegen passes ------------------*- C++ -*-===//
//
// Transforms of linearized kernels (L3): they take what uop-linearize made
// (scf, memref, arith, math, vector) and leave the same dialects, so they
// sit between the conversion to loops and the conversion to LLVM/NVVM.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_CODEGEN_PASSES_H
#define UOP_CODEGEN_PASSES_H

#include "Uop/IR/UopDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::uop {

#define GEN_PASS_DECL
#include "Uop/Codegen/Passes.h.inc"

/// The patterns of uop-expand-math: math.exp2 and math.log2 on f32 and f16
/// (scalars and fixed vectors) as vectorizable arith ops.
void populateUopExpandMathPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "Uop/Codegen/Passes.h.inc"

} // namespace mlir::uop

#endif // UOP_CODEGEN_PASSES_H
