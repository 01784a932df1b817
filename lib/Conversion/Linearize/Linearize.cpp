//===- Linearize.cpp - kernel graph (L2) to scf loops (L3) -----*- C++ -*-===//
//
// uop-linearize: the seed's `linearize` (uopc/linearize.py) and the lowering
// half of its `render_c`. The kernel DAG is scheduled into a list whose
// RANGE/END nodes open and close loops (Schedule.h), and that list is
// emitted as scf/memref/arith/math (Emitter.h), with the vector lanes
// Uop/Codegen/LaneLegality.h allows and the run-time checks of
// RuntimeChecks.h.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"
#include "Schedule.h"

#include "Uop/Conversion/Passes.h"
#include "Uop/IR/UopOps.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPLINEARIZEPASS
#include "Uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// uop-linearize: linearizeKernel on each function, on the GPU path where
/// asked (or, with emulate-barriers, where the kernel has a barrier).
struct UopLinearizePass : mlir::uop::impl::UopLinearizePassBase<UopLinearizePass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    bool asGpu =
        gpu || (emulateBarriers &&
                func.walk([](BarrierOp) { return WalkResult::interrupt(); }).wasInterrupted());
    if (failed(linearizeKernel(func, asGpu, checks)))
      signalPassFailure();
  }
};

} // namespace

LogicalResult mlir::uop::linearizeKernel(func::FuncOp func, bool gpu, bool checks) {
  if (func.isExternal() || !llvm::hasSingleElement(func.getBody()))
    return success();
  Block &body = func.getBody().front();
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  // Only kernel graphs: a function returning the effect of a uop.sink.
  if (!ret || ret.getNumOperands() != 1)
    return success();
  auto sink = ret.getOperand(0).getDefiningOp<SinkOp>();
  if (!sink) {
    // A shaped program (L1) is left as it is, and said so: it needs
    // uop-rangeify first. (A kernelized program's host is uop-lower-host's.)
    if (!isHost(func) && !isa<VoidType>(ret.getOperand(0).getType()))
      emitWarning(func.getLoc(), "uop-linearize: @")
          << func.getSymName()
          << " is a shaped program (L1), not a kernel graph; run uop-rangeify first "
             "(nothing to linearize)";
    return success();
  }
  if (func.getNumArguments() != 0)
    return func.emitOpError("uop-linearize: a kernel graph takes no arguments "
                            "(its inputs are uop.buffer slots)");

  Scheduler sched(sink);
  if (failed(sched.run()))
    return failure();

  // Bounds for the floordiv/floormod fast path, computed on the uop graph.
  DataFlowSolver solver;
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<dataflow::IntegerRangeAnalysis>();
  if (failed(solver.initializeAndRun(func)))
    return func.emitOpError("uop-linearize: bounds analysis failed");

  Emitter emitter(func, sched, solver, gpu, checks);
  return emitter.run();
}
