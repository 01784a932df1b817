//===- HandOpt.cpp - the uop-hand-opt strategy pass ------------*- C++ -*-===//
//
// The seed's `hand_opt_choice` (uopc/opt.py) and `gpu_opt_choice`
// (uopc/gpu.py): simple rules that decide how a kernel maps onto the
// machine. They are written here, as a pass that only sets `uop.opts`, so
// that no lowering hides a cost decision: uop-rangeify applies whatever the
// attribute says, whoever chose it (this pass, a search, or a user).
//
//===----------------------------------------------------------------------===//

#include "Uop/Transforms/Passes.h"

#include "Uop/IR/UopAttrs.h"
#include "Uop/IR/UopDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <map>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPHANDOPTPASS
#include "Uop/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {
/// The seed's Opts while it is being chosen (maps keyed by axis).
struct Choice {
  std::map<int64_t, int64_t> upcast, local;
  int64_t thread = -1, unroll = 1;
  bool gpu = false;

  OptsAttr toAttr(MLIRContext *ctx) const {
    auto flat = [](const std::map<int64_t, int64_t> &m) {
      SmallVector<int64_t> v;
      for (auto [axis, f] : m)
        v.append({axis, f});
      return v;
    };
    return OptsAttr::get(ctx, flat(upcast), thread, unroll, {}, gpu, flat(local));
  }
};
} // namespace

static int64_t product(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= d;
  return p;
}

/// The seed's `_reduce_size`: the largest number of elements one reduction
/// of the kernel folds into one (1 when it reduces nothing).
static int64_t reduceSize(func::FuncOp kernel) {
  int64_t size = 1;
  kernel.walk([&](ReduceOp r) {
    ArrayRef<int64_t> shape = getShape(r.getSrc().getType());
    int64_t pop = std::min<int64_t>(r.getPop(), shape.size());
    size = std::max(size, product(shape.take_back(pop)));
  });
  return size;
}

/// hand_opt_choice.
static Choice handOptChoice(ArrayRef<int64_t> shape, int64_t rsize) {
  Choice o;
  int64_t rank = shape.size();
  if (rsize > 1) {
    // A 4x4 register tile on the last two output axes (the seed tuned it for
    // AVX2's 16 vector registers).
    int64_t budget = 16;
    for (auto [axis, want] : {std::pair<int64_t, int64_t>{rank - 1, 4}, {rank - 2, 4}}) {
      if (axis < 0)
        continue;
      for (int64_t f : {want, int64_t(4), int64_t(2)}) {
        if (f <= budget && shape[axis] % f == 0 && shape[axis] >= f && f > 1) {
          o.upcast[axis] = f;
          budget /= f;
          break;
        }
      }
    }
    if (o.upcast.empty() && rsize % 4 == 0 && rsize < 64)
      o.unroll = 4;
  }
  // Threads only when there is enough work to amortize waking them up.
  int64_t work = product(shape) * rsize;
  if (work >= (int64_t(1) << 16)) {
    for (int64_t axis = 0; axis < rank; ++axis) {
      auto it = o.upcast.find(axis);
      if (shape[axis] / (it == o.upcast.end() ? 1 : it->second) >= 2) {
        o.thread = axis;
        break;
      }
    }
  }
  return o;
}

/// gpu_opt_choice. Fails with a diagnostic on more than 3 non-trivial axes.
static FailureOr<Choice> gpuOptChoice(func::FuncOp kernel, ArrayRef<int64_t> shape, bool reduces,
                                      int64_t maxThreads) {
  Choice o;
  o.gpu = true;
  SmallVector<int64_t> axes;
  for (auto [k, s] : llvm::enumerate(shape))
    if (s > 1)
      axes.push_back(k);
  if (axes.size() > 3)
    return emitError(kernel.getLoc(), "uop-hand-opt: more than 3 non-trivial output axes (")
           << axes.size() << "): the GPU grid has 3 dimensions; reshape first";
  int64_t budget = maxThreads;
  for (int64_t k : llvm::reverse(axes)) {
    if (reduces && shape[k] % 2 == 0 && shape[k] >= 32)
      o.upcast[k] = 2;
    int64_t rest = shape[k] / (o.upcast.count(k) ? o.upcast[k] : 1);
    int64_t cap = std::min<int64_t>(budget, axes.size() > 1 ? 16 : budget);
    int64_t t = 1;
    while (t * 2 <= cap && rest % (t * 2) == 0)
      t *= 2;
    if (t > 1) {
      o.local[k] = t;
      budget /= t;
    }
  }
  return o;
}

namespace {
struct UopHandOptPass : uop::impl::UopHandOptPassBase<UopHandOptPass> {
  using Base::Base;
  void runOnOperation() override {
    bool gpu = target == "gpu";
    if (!gpu && target != "cpu") {
      emitError(getOperation().getLoc(), "uop-hand-opt: unknown target '")
          << target << "' (expected cpu or gpu)";
      return signalPassFailure();
    }
    if (maxThreads < 1) {
      emitError(getOperation().getLoc(), "uop-hand-opt: max-threads must be >= 1, got ")
          << maxThreads;
      return signalPassFailure();
    }
    for (auto kernel : getOperation().getOps<func::FuncOp>()) {
      if (!isKernel(kernel) || kernel->hasAttr(kOptsAttrName) || kernel.isDeclaration())
        continue;
      auto ret = dyn_cast<func::ReturnOp>(kernel.getBody().front().getTerminator());
      if (!ret || ret.getNumOperands() != 1 || isa<VoidType>(ret.getOperand(0).getType()))
        continue; // already a kernel graph (L2): nothing left to choose
      ArrayRef<int64_t> shape = getShape(ret.getOperand(0).getType());
      Choice choice;
      if (gpu) {
        bool reduces =
            kernel.walk([](ReduceOp) { return WalkResult::interrupt(); }).wasInterrupted();
        FailureOr<Choice> c = gpuOptChoice(kernel, shape, reduces, maxThreads);
        if (failed(c))
          return signalPassFailure();
        choice = *c;
      } else {
        choice = handOptChoice(shape, reduceSize(kernel));
      }
      kernel->setAttr(kOptsAttrName, choice.toAttr(&getContext()));
      ++numChosen;
    }
  }
};
} // namespace
