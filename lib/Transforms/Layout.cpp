//===- Layout.cpp - the uop-layout pass (the seed's layout_pass) -*- C++ -*-===//
//
// The seed's `layout_pass` (uopc/opt.py): make the innermost reduce axis
// contiguous in memory. Movement ops are pushed through elementwise ops to
// the leaves (permute(a * b) == permute(a) * permute(b)), so every view chain
// ends at real data; then every view feeding a reduce is probed for the
// stride of its last axis, and an operand read with a stride other than 0 or
// 1 that is broadcast into the reduce is staged (`uop.stage`) before the
// broadcast, where the copy makes it contiguous. `A @ B` then reads B's rows.
//
//===----------------------------------------------------------------------===//

#include "Uop/Transforms/Passes.h"

#include "Uop/IR/UopOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPLAYOUTPASS
#include "Uop/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {


/// The same movement op as `m` applied to `src`.
Value moveLike(OpBuilder &b, Operation *m, Value src) {
  Location loc = m->getLoc();
  if (auto r = dyn_cast<ReshapeOp>(m))
    return ReshapeOp::create(b, loc, src, r.getShapeAttr());
  if (auto e = dyn_cast<ExpandOp>(m))
    return ExpandOp::create(b, loc, src, e.getShapeAttr());
  if (auto p = dyn_cast<PermuteOp>(m))
    return PermuteOp::create(b, loc, src, p.getPermAttr());
  auto s = cast<ShrinkOp>(m);
  return ShrinkOp::create(b, loc, src, s.getBoundsAttr());
}

/// movement(alu(x, y, ...)) -> alu(movement(x), movement(y), ...): the seed's
/// `push_views`. Elementwise ops' operands all have the result's shape, so
/// the same movement applies to each.
struct PushView : RewritePattern {
  PushView(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *m, PatternRewriter &rewriter) const override {
    if (!isMovement(m))
      return failure();
    Operation *alu = m->getOperand(0).getDefiningOp();
    if (!alu || !isALU(alu))
      return rewriter.notifyMatchFailure(m, "not a movement of an elementwise op");
    SmallVector<Value> srcs;
    for (Value s : alu->getOperands())
      srcs.push_back(moveLike(rewriter, m, s));
    ArrayRef<int64_t> shape = getShape(m->getResult(0).getType());
    Type type = getValueType(shape, getDType(alu->getResult(0).getType()));
    OperationState state(alu->getLoc(), alu->getName(), srcs, {type}, alu->getAttrs());
    rewriter.replaceOp(m, rewriter.create(state)->getResults());
    return success();
  }
};

int64_t numel(Value v) { return getNumElements(v.getType()); }

/// The distance in memory between view[..., k] and view[..., k+1], where the
/// movement chain from `view` ends at `base` (exclusive), which is read as a
/// contiguous row-major buffer: the seed's `_last_axis_stride`, with the
/// index arithmetic done on the two points instead of symbolically.
int64_t lastAxisStride(Value view, Value base) {
  ArrayRef<int64_t> vshape = getShape(view.getType());
  if (vshape.empty() || vshape.back() == 1)
    return 0;
  SmallVector<Operation *> chain;
  for (Value v = view; v != base; v = v.getDefiningOp()->getOperand(0))
    chain.push_back(v.getDefiningOp());
  auto flatAt = [&](int64_t last) {
    SmallVector<int64_t> idx(vshape.size(), 0);
    idx.back() = last;
    for (Operation *op : chain) {
      ArrayRef<int64_t> in = getShape(op->getOperand(0).getType());
      ArrayRef<int64_t> out = getShape(op->getResult(0).getType());
      SmallVector<int64_t> next(in.size(), 0);
      if (isa<ReshapeOp>(op)) {
        int64_t linear = 0;
        for (auto [i, d] : llvm::zip(idx, out))
          linear = linear * d + i;
        for (int64_t k = in.size() - 1; k >= 0; --k) {
          next[k] = linear % in[k];
          linear /= in[k];
        }
      } else if (isa<ExpandOp>(op)) {
        for (size_t k = 0; k < in.size(); ++k)
          next[k] = in[k] == 1 ? 0 : idx[k];
      } else if (auto p = dyn_cast<PermuteOp>(op)) {
        for (auto [i, axis] : llvm::enumerate(p.getPerm()))
          next[axis] = idx[i];
      } else {
        auto s = cast<ShrinkOp>(op);
        for (size_t k = 0; k < in.size(); ++k)
          next[k] = idx[k] + s.getBound(k).first;
      }
      idx = std::move(next);
    }
    int64_t flat = 0;
    for (auto [i, d] : llvm::zip(idx, getShape(base.getType())))
      flat = flat * d + i;
    return flat;
  };
  return flatAt(1) - flatAt(0);
}

/// The movement chains feeding `x` through elementwise ops, as (top of the
/// chain, the materialized value under it): the seed's `_views`.
SmallVector<std::pair<Value, Value>> views(Value x) {
  SmallVector<std::pair<Value, Value>> out;
  DenseSet<Value> seen;
  SmallVector<Value> stack{x};
  while (!stack.empty()) {
    Value u = stack.pop_back_val();
    if (!seen.insert(u).second)
      continue;
    Operation *def = u.getDefiningOp();
    if (!def)
      continue;
    if (isALU(def)) {
      for (Value s : def->getOperands())
        stack.push_back(s);
    } else if (isMovement(def)) {
      Value base = u;
      while (base.getDefiningOp() && isMovement(base.getDefiningOp()))
        base = base.getDefiningOp()->getOperand(0);
      if (isa_and_nonnull<BufferOp, ReduceOp, StageOp>(base.getDefiningOp()))
        out.push_back({u, base});
    }
  }
  return out;
}

struct UopLayoutPass : uop::impl::UopLayoutPassBase<UopLayoutPass> {
  using Base::Base;
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isDeclaration() || isHost(func) || !llvm::hasSingleElement(func.getBody()))
        continue;
      FailureOr<unsigned> staged = layoutProgram(func);
      if (failed(staged))
        return signalPassFailure();
      numStaged += *staged;
    }
  }
};

} // namespace

FailureOr<unsigned> mlir::uop::layoutProgram(func::FuncOp func) {
  auto ret = dyn_cast<func::ReturnOp>(func.getBody().front().getTerminator());
  if (!ret || llvm::any_of(ret.getOperandTypes(), llvm::IsaPred<VoidType>))
    return 0u; // not a shaped program (a kernel graph has no views left to move)
  MLIRContext *ctx = func.getContext();
  {
    RewritePatternSet patterns(ctx);
    patterns.add<PushView>(ctx);
    // Only the seed's rule: no folding (the seed does not fold here).
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false).setRegionSimplificationLevel(
        GreedySimplifyRegionLevel::Disabled);
    bool changed = false;
    if (failed(applyPatternsGreedily(func, std::move(patterns), config, &changed)))
      return func.emitOpError("uop-layout: pushing movement ops to the leaves did not converge"),
             failure();
    // The seed's graph is hash-consed: the same view pushed down two paths is
    // one node.
    if (changed) {
      IRRewriter rewriter(ctx);
      DominanceInfo dom(func);
      eliminateCommonSubExpressions(rewriter, dom, func);
    }
  }

  // The reduces reachable from the returned values, sources first.
  ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  DenseSet<Operation *> live;
  SmallVector<Value> stack(ret.getOperands());
  while (!stack.empty()) {
    Operation *def = stack.pop_back_val().getDefiningOp();
    if (!def || !live.insert(def).second)
      continue;
    for (Value s : def->getOperands())
      stack.push_back(s);
  }
  llvm::SetVector<Value> todo;
  for (Operation &op : func.getBody().front()) {
    auto r = dyn_cast<ReduceOp>(&op);
    if (!r || !live.contains(r))
      continue;
    for (auto [view, base] : views(r.getSrc())) {
      int64_t s = lastAxisStride(view, base);
      if (s == 0 || s == 1)
        continue;
      // Stage before the broadcast, and only operands that get broadcast
      // into the reduce: copying them is cheap.
      Value c = view;
      while (auto e = c.getDefiningOp<ExpandOp>())
        c = e.getSrc();
      if (numel(c) > numel(base) || numel(c) >= numel(r.getSrc()) || todo.contains(c))
        continue;
      if (lastAxisStride(view, c) == 1)
        todo.insert(c);
    }
  }
  for (Value c : todo) {
    OpBuilder b(ctx);
    b.setInsertionPointAfterValue(c);
    auto st = StageOp::create(b, c.getLoc(), c.getType(), c);
    c.replaceAllUsesExcept(st.getResult(), st);
  }
  return static_cast<unsigned>(todo.size());
}
