//===- Passes.h - uop conversion passes --------------------------*- C++ -*-===//

#ifndef UOP_CONVERSION_PASSES_H
#define UOP_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "Uop/IR/UopDialect.h"

namespace mlir::uop {

#define GEN_PASS_DECL
#include "Uop/Conversion/Passes.h.inc"

/// Schedules the kernel graph in `func` (a body rooted at a `uop.sink`) and
/// replaces the body with scf/memref/arith/math code; buffers become the
/// function's arguments in slot order. Emits a diagnostic and fails on a
/// graph that cannot be scheduled.
LogicalResult linearizeKernel(func::FuncOp func);

/// Lowers the shaped program in `func` (its result a value) to a kernel graph
/// that stores the value into a new buffer slot (the seed's rangeify.lower).
LogicalResult rangeifyFunction(func::FuncOp func);

/// One argument of a lowered host function.
struct HostArg {
  enum Kind : int64_t { Input = 0, Output = 1, Temp = 2 };
  Kind kind;
  int64_t slot;  ///< the input's buffer slot; -1 for outputs and temporaries
  Type dtype;
  int64_t numel; ///< elements (at least 1)
};

/// The calling convention of a kernelized program's host function once
/// lowered by uop-lower-host: its buffers in order (inputs, outputs, then
/// temporaries, which are arguments only with temps-as-args), and per
/// returned value the buffer that holds it (an input for an aliased buffer)
/// and its shape.
struct HostPlan {
  SmallVector<HostArg> args;
  SmallVector<unsigned> results;
  SmallVector<SmallVector<int64_t>> resultShapes;
  unsigned numLaunches = 0;
};

/// The plan of a host function made by uop-kernelize (before or after the
/// kernels are lowered, but before uop-lower-host).
FailureOr<HostPlan> getHostPlan(func::FuncOp host);

/// Lowers the host function made by uop-kernelize (see uop-lower-host).
/// Temporaries are allocated in the host, or with `tempsAsArgs` are its
/// last arguments.
LogicalResult lowerHost(func::FuncOp host, bool tempsAsArgs = false);

#define GEN_PASS_REGISTRATION
#include "Uop/Conversion/Passes.h.inc"

} // namespace mlir::uop

#endif // UOP_CONVERSION_PASSES_H
