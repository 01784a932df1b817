//===- SplitReduce.cpp - the uop-split-reduce pass ---------------*- C++ -*-===//
//
// A reduction with few outputs and a long reduce axis gives a GPU few
// threads, each walking the whole axis one dependent add at a time (the GPT
// step's weight, bias and layernorm gradients: 64 to 12,288 outputs summed
// over 1,024 rows took 3.2 of the step's 5 ms on an H200). This pass splits
// such a reduce into two (tinygrad's `split_reduceop`): G partial sums per
// output, then their sum. uop-kernelize makes a kernel of a reduce that
// feeds a reduce (unless `fuse-reduce`), so the partial sums are a kernel's
// output: the first kernel has G times the threads and 1/G of the walk.
//
//===----------------------------------------------------------------------===//

#include "Uop/Transforms/Passes.h"

#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopTarget.h"
#include "Uop/IR/UopTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPSPLITREDUCEPASS
#include "Uop/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// How many parts to split a reduce of `outputs` outputs over `first` x
/// `rest` reduced elements (`first` the outermost reduced axis, the one that
/// is split) into: the largest power of two G that divides `first`, with
/// outputs * G threads at most `threads` and at least `minPart` elements in
/// each part; 0 when that is fewer than 4 parts (not worth a kernel).
int64_t splitParts(int64_t outputs, int64_t first, int64_t rest, int64_t threads,
                   int64_t minPart) {
  int64_t best = 0;
  for (int64_t g = 4; g <= 256 && first % g == 0; g *= 2) {
    if (outputs * g > threads || (first / g) * rest < minPart)
      break;
    best = g;
  }
  return best;
}

/// Whether `v`, through movement ops, is a 16-bit float or a cast of one.
bool isHalf(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<ReshapeOp, ExpandOp, PermuteOp, ShrinkOp>(def)) {
      v = def->getOperand(0);
      continue;
    }
    if (auto cast = dyn_cast<CastOp>(def))
      v = cast.getSrc();
    break;
  }
  Type t = getElementTypeOrSelf(v.getType());
  return t.isF16() || t.isBF16();
}

/// A product of two 16-bit float operands: a GEMM the tensor cores take
/// whole (uop-match-gemm, the `tc` opt), not split.
bool isHalfProduct(Value src) {
  auto mul = src.getDefiningOp<MulOp>();
  return mul && isHalf(mul.getLhs()) && isHalf(mul.getRhs());
}

struct UopSplitReducePass : uop::impl::UopSplitReducePassBase<UopSplitReducePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (minReduce < 2 || minPart < 1) {
      emitError(module.getLoc(), "uop-split-reduce: min-reduce must be >= 2 and min-part >= 1");
      return signalPassFailure();
    }
    TargetAttr target = getTarget(module);
    if (!target || !target.isCUDA())
      return; // a CPU thread walks a long axis fast; its opts split the outputs
    // Enough threads to fill the chip: every multiprocessor's maximum.
    int64_t threads = std::max<int64_t>(target.getMultiprocessors(), 1) *
                      std::max<int64_t>(target.getMaxThreads(), 32);
    SmallVector<ReduceOp> reduces;
    module.walk([&](ReduceOp r) {
      auto func = r->getParentOfType<func::FuncOp>();
      if (func && !isKernel(func))
        reduces.push_back(r);
    });
    for (ReduceOp r : reduces) {
      ArrayRef<int64_t> in = getShape(r.getSrc().getType());
      int64_t pop = r.getPop();
      if (pop < 1 || pop > (int64_t)in.size())
        continue;
      size_t lead = in.size() - pop;
      int64_t outputs = 1, reduced = 1;
      for (size_t i = 0; i < in.size(); ++i)
        (i < lead ? outputs : reduced) *= in[i];
      // Enough outputs to fill the chip already, or a short walk.
      if (reduced < minReduce || outputs * 4 > threads || isHalfProduct(r.getSrc()))
        continue;
      int64_t first = in[lead];
      int64_t g = splitParts(outputs, first, reduced / first, threads, minPart);
      if (!g)
        continue;
      // x: P + (first, rest...) -> P + (G, first/G, rest...), reduced over
      // its last `pop` axes to P + (G), reduced over G.
      OpBuilder b(r);
      Location loc = r.getLoc();
      SmallVector<int64_t> split(in.begin(), in.begin() + lead);
      split.push_back(g);
      split.push_back(first / g);
      split.append(in.begin() + lead + 1, in.end());
      Value view = ReshapeOp::create(b, loc, r.getSrc(), b.getDenseI64ArrayAttr(split));
      Value parts = ReduceOp::create(b, loc, view, r.getKindAttr(), r.getPopAttr());
      Value total = ReduceOp::create(b, loc, parts, r.getKindAttr(), b.getI64IntegerAttr(1));
      r.getResult().replaceAllUsesWith(total);
      r.erase();
      ++numSplit;
    }
  }
};

} // namespace
