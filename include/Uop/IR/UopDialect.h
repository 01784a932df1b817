//===- UopDialect.h - the uop dialect ----------------------------*- C++ -*-===//

#ifndef UOP_IR_UOPDIALECT_H
#define UOP_IR_UOPDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"

#include "Uop/IR/UopOpsDialect.h.inc"

namespace mlir::uop {

/// The discardable attributes uop's passes put on functions, named once.
/// uop-kernelize marks kernels and the host; uop-linearize records a kernel's
/// buffer slots; uop-rangeify its output; uop-lower-host the host's calling
/// convention.
inline constexpr llvm::StringLiteral kKernelAttrName = "uop.kernel";
inline constexpr llvm::StringLiteral kHostAttrName = "uop.host";
inline constexpr llvm::StringLiteral kOptsAttrName = "uop.opts";
inline constexpr llvm::StringLiteral kSlotsAttrName = "uop.slots";
inline constexpr llvm::StringLiteral kSlotArgAttrName = "uop.slot";
inline constexpr llvm::StringLiteral kOutputSlotAttrName = "uop.output_slot";
inline constexpr llvm::StringLiteral kOutputShapeAttrName = "uop.output_shape";
inline constexpr llvm::StringLiteral kHostArgsAttrName = "uop.host_args";
inline constexpr llvm::StringLiteral kHostSlotsAttrName = "uop.host_slots";
inline constexpr llvm::StringLiteral kHostResultsAttrName = "uop.host_results";
/// uop-lower-gemm's warpgroup kernels: on the kernel, the tensor maps the
/// runtime encodes for it (an array of dictionaries: param, type, offset,
/// dims, stride, box, swizzle); on a placeholder of the kernel's body, which
/// of them it is (uop-tensor-maps-to-nvvm makes it a kernel parameter).
inline constexpr llvm::StringLiteral kTensorMapAttrName = "uop.tma";
/// uop-linearize{gpu=true} marks each GPU-mapped scf.parallel with the kind
/// of the range it came from (`#uop.axis<global>` or `#uop.axis<local>`).
inline constexpr llvm::StringLiteral kAxisAttrName = "uop.axis";
/// The mapping attribute of a GPU-mapped scf.parallel, as upstream's
/// gpu-map-parallel-loops names it (gpu::getMappingAttrName()).
inline constexpr llvm::StringLiteral kMappingAttrName = "mapping";

/// A kernel made by uop-kernelize (or a kernel graph uop-linearize lowered).
inline bool isKernel(Operation *op) { return op->hasAttr(kKernelAttrName); }
/// The host function of a kernelized program.
inline bool isHost(Operation *op) { return op->hasAttr(kHostAttrName); }

} // namespace mlir::uop

#endif // UOP_IR_UOPDIALECT_H
