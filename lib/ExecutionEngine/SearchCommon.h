//===- SearchCommon.h - What the CPU and GPU searches share -------*- C++ -*-===//
//
// Private to lib/ExecutionEngine: a kernel's cache key text, the one-kernel
// program a candidate is compiled as, and the hand's choice, for
// Search.cpp (timed in process on the CPU) and GpuSearch.cpp (bundles
// timed on a GPU machine).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_EXECUTIONENGINE_SEARCHCOMMON_H
#define UOP_LIB_EXECUTIONENGINE_SEARCHCOMMON_H

#include "Uop/IR/UopAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace mlir::uop::search {

/// The first line of a cached winner, bumped whenever a cached winner may
/// no longer be what a search would find for the same kernel.
extern const char *const kSearchFormat;

/// The kernel as text under a fixed name, without opts: its structure.
std::string kernelText(func::FuncOp kernel);

/// A one-kernel program: `kernel` (with `opts`) and a host launching it on
/// its buffer slots, as uop-kernelize would make it.
OwningOpRef<ModuleOp> singleKernelProgram(func::FuncOp kernel, OptsAttr opts);

/// Whether `kernel` divides by data (random inputs may divide by 0).
bool dividesByData(func::FuncOp kernel);

/// What uop-hand-opt chooses for `kernel` on its target.
OptsAttr handChoice(func::FuncOp kernel);

} // namespace mlir::uop::search

#endif // UOP_LIB_EXECUTIONENGINE_SEARCHCOMMON_H
