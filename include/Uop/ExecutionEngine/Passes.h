//===- Passes.h - passes that compile and run code ---------------*- C++ -*-===//
//
// uop-search: a pass over kernelized modules that compiles and times
// candidate opts through the execution engine (see Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_EXECUTIONENGINE_PASSES_H
#define UOP_EXECUTIONENGINE_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::uop {

#define GEN_PASS_DECL
#include "Uop/ExecutionEngine/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Uop/ExecutionEngine/Passes.h.inc"

} // namespace mlir::uop

#endif // UOP_EXECUTIONENGINE_PASSES_H
