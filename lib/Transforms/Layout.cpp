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
#include "Uop/IR/UopViews.h"

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

/// The distance in memory between view[..., k] and view[..., k+1], where the
/// movement chain from `view` ends at `base` (exclusive), which is read as a
/// contiguous row-major buffer: the seed's `_last_axis_stride`, with the
/// index arithmetic done on the two points instead of symbolically.
int64_t mlir::uop::getViewAxisStride(Value view, Value base, int64_t axis) {
  ArrayRef<int64_t> vshape = getShape(view.getType());
  if (axis < 0 || axis >= (int64_t)vshape.size() || vshape[axis] == 1)
    return 0;
  SmallVector<Operation *> chain;
  for (Value v = view; v != base; v = v.getDefiningOp()->getOperand(0))
    chain.push_back(v.getDefiningOp());
  auto flatAt = [&](int64_t at) {
    SmallVector<int64_t> idx(vshape.size(), 0);
    idx[axis] = at;
    for (Operation *op : chain)
      idx = getMovementSourceIndex(op, idx);
    int64_t flat = 0;
    for (auto [i, d] : llvm::zip(idx, getShape(base.getType())))
      flat = flat * d + i;
    return flat;
  };
  return flatAt(1) - flatAt(0);
}

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

int64_t lastAxisStride(Value view, Value base) {
  return getViewAxisStride(view, base, (int64_t)getShape(view.getType()).size() - 1);
}

/// Whether `c` (a view of `base` below the broadcasts into reduce `r`) is B
/// of a matmul-shaped reduce that panels `panel` wide fit: one reduce axis
/// (the last, K), broadcast along the rows (the axis before the columns),
/// spanning all of the columns (a multiple of `panel`).
bool isPanelOperand(Value c, ReduceOp r, int64_t panel) {
  ArrayRef<int64_t> src = getShape(r.getSrc().getType()), cs = getShape(c.getType());
  int64_t rank = src.size();
  if (panel < 2 || r.getPop() != 1 || rank < 3 || (int64_t)cs.size() != rank)
    return false;
  int64_t j = rank - 2, i = rank - 3;
  return cs[i] == 1 && src[i] != 1 && cs[j] == src[j] && src[j] % panel == 0 &&
         cs[rank - 1] == src[rank - 1] && src[rank - 1] != 1;
}

/// Whether `c` already reads `base` as panels `panel` wide, or close
/// enough: columns 1 apart, and K steps `panel` apart (packed before, or
/// stored so) or a multiple of `panel` up to `unpacked` (see the pass's
/// unpacked-rows).
bool readsPanels(Value c, Value base, int64_t panel, int64_t unpacked) {
  int64_t rank = getShape(c.getType()).size();
  int64_t k = getViewAxisStride(c, base, rank - 1);
  return getViewAxisStride(c, base, rank - 2) == 1 &&
         (k == panel || (k > 0 && k % panel == 0 && k <= unpacked));
}

/// Stage `c` (..., J, K) as panels: split J into (J/W, W), move W last,
/// stage that contiguous [J/W][K][W] copy, and view it back as (..., J, K).
void stagePanels(Value c, int64_t panel) {
  OpBuilder b(c.getContext());
  b.setInsertionPointAfterValue(c);
  Location loc = c.getLoc();
  SmallVector<int64_t> shape(getShape(c.getType()));
  int64_t rank = shape.size(), j = rank - 2;
  SmallVector<int64_t> split(shape.begin(), shape.begin() + j);
  split.append({shape[j] / panel, panel, shape[rank - 1]});
  SmallVector<int64_t> perm;
  for (int64_t k = 0; k < j + 1; ++k)
    perm.push_back(k);
  perm.append({j + 2, j + 1}); // (..., J/W, W, K) <-> (..., J/W, K, W): its own inverse
  Value r1 = ReshapeOp::create(b, loc, c, b.getDenseI64ArrayAttr(split));
  Value p1 = PermuteOp::create(b, loc, r1, b.getDenseI64ArrayAttr(perm));
  Value st = StageOp::create(b, loc, p1.getType(), p1);
  Value p2 = PermuteOp::create(b, loc, st, b.getDenseI64ArrayAttr(perm));
  Value r2 = ReshapeOp::create(b, loc, p2, b.getDenseI64ArrayAttr(shape));
  c.replaceAllUsesExcept(r2, r1.getDefiningOp());
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
      Value base = getMovementBase(u);
      if (isa_and_nonnull<BufferOp, ReduceOp, StageOp>(base.getDefiningOp()))
        out.push_back({u, base});
    }
  }
  return out;
}

struct UopLayoutPass : uop::impl::UopLayoutPassBase<UopLayoutPass> {
  using Base::Base;
  void runOnOperation() override {
    if (panel < 0) {
      emitError(getOperation().getLoc(), "uop-layout: panel must be >= 0, got ")
          << static_cast<int64_t>(panel);
      return signalPassFailure();
    }
    if (unpackedRows < 0) {
      emitError(getOperation().getLoc(), "uop-layout: unpacked-rows must be >= 0, got ")
          << static_cast<int64_t>(unpackedRows);
      return signalPassFailure();
    }
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isDeclaration() || isHost(func) || !llvm::hasSingleElement(func.getBody()))
        continue;
      FailureOr<unsigned> staged = layoutProgram(func, panel, unpackedRows);
      if (failed(staged))
        return signalPassFailure();
      numStaged += *staged;
    }
  }
};

} // namespace

FailureOr<unsigned> mlir::uop::layoutProgram(func::FuncOp func, int64_t panel,
                                             int64_t unpackedRows) {
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
  llvm::SetVector<Value> todo, panels;
  for (Operation &op : func.getBody().front()) {
    auto r = dyn_cast<ReduceOp>(&op);
    if (!r || !live.contains(r))
      continue;
    for (auto [view, base] : views(r.getSrc())) {
      // Stage before the broadcast, and only operands that get broadcast
      // into the reduce: copying them is cheap.
      Value c = view;
      while (auto e = c.getDefiningOp<ExpandOp>())
        c = e.getSrc();
      if (numel(c) > numel(base) || numel(c) >= numel(r.getSrc()) || todo.contains(c) ||
          panels.contains(c))
        continue;
      if (isPanelOperand(c, r, panel)) {
        if (!readsPanels(c, base, panel, unpackedRows))
          panels.insert(c);
        continue;
      }
      int64_t s = lastAxisStride(view, base);
      if (s != 0 && s != 1 && lastAxisStride(view, c) == 1)
        todo.insert(c);
    }
  }
  for (Value c : todo) {
    OpBuilder b(ctx);
    b.setInsertionPointAfterValue(c);
    auto st = StageOp::create(b, c.getLoc(), c.getType(), c);
    c.replaceAllUsesExcept(st.getResult(), st);
  }
  for (Value c : panels)
    stagePanels(c, panel);
  return static_cast<unsigned>(todo.size() + panels.size());
}
