//===- UopOps.h - uop operations ---------------------------------*- C++ -*-===//

#ifndef UOP_IR_UOPOPS_H
#define UOP_IR_UOPOPS_H

#include "Uop/IR/UopAttrs.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/IR/UopTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::uop {
/// The side-effect resource of uop memory (buffers, allocs, shared memory).
struct UopMemoryResource
    : public mlir::SideEffects::Resource::Base<UopMemoryResource> {
  llvm::StringRef getName() final { return "uop.memory"; }
};
} // namespace mlir::uop

#define GET_OP_CLASSES
#include "Uop/IR/UopOps.h.inc"

#endif // UOP_IR_UOPOPS_H
