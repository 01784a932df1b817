//===- Evaluate.cpp - the uop-evaluate pass --------------------*- C++ -*-===//
//
// The seed's `run`: the symbolic rules plus its `evaluate` list. A closed
// program rewrites all the way to one constant: rewriting is the
// interpreter. ALU ops are pushed through stacks (and dense constants, the
// folded form of a stack) one leading index at a time, indexing a stack picks
// its element, movement ops and reductions on literals are computed, and
// calls are inlined.
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopBounds.h"
#include "Uop/IR/UopSemantics.h"
#include "Uop/Transforms/Passes.h"
#include "Uop/Transforms/SeedOrderRewrite.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPEVALUATEPASS
#include "Uop/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// A constant's attribute, if `v` is a scalar or dense constant.
Attribute constAttr(Value v) {
  Attribute attr;
  if (matchPattern(v, m_Constant(&attr)) &&
      isa<IntegerAttr, FloatAttr, DenseIntOrFPElementsAttr>(attr))
    return attr;
  return {};
}

Value i32Const(PatternRewriter &rewriter, Location loc, int64_t v) {
  return ConstOp::create(rewriter, loc, rewriter.getI32IntegerAttr(v));
}

/// f(STACK(a0, a1), STACK(b0, b1)) -> STACK(f(a0, b0), f(a1, b1)); an operand
/// that is not a stack is indexed. Dense constants count as stacks (they are
/// their folded form), which also splits an all-constant op whose folding was
/// refused for some element (x/0): the other elements still fold.
struct PushAluThroughStack : RewritePattern {
  PushAluThroughStack(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!getAluKind(op))
      return rewriter.notifyMatchFailure(op, "not an ALU op");
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "scalar result");
    if (!llvm::any_of(op->getOperands(), [](Value v) {
          return v.getDefiningOp<StackOp>() || (constAttr(v) && isa<ShapedType>(v.getType()));
        }))
      return rewriter.notifyMatchFailure(op, "no stack operand");
    Location loc = op->getLoc();
    Type elemType = getValueType(type.getShape().drop_front(), type.getElementType());
    SmallVector<Value> elems;
    for (int64_t i = 0, e = type.getDimSize(0); i < e; ++i) {
      SmallVector<Value> operands;
      for (Value v : op->getOperands()) {
        if (auto stack = v.getDefiningOp<StackOp>())
          operands.push_back(stack.getSrcs()[i]);
        else
          operands.push_back(
              IndexOp::create(rewriter, loc, v, ValueRange{i32Const(rewriter, loc, i)}));
      }
      OperationState state(loc, op->getName(), operands, TypeRange{elemType}, op->getAttrs());
      elems.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOpWithNewOp<StackOp>(op, elems);
    return success();
  }
};

/// index(x) -> x
struct IndexNone : OpRewritePattern<IndexOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IndexOp op, PatternRewriter &rewriter) const override {
    if (!op.getIndices().empty() || op.getSrc().getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "has indices");
    rewriter.replaceOp(op, op.getSrc());
    return success();
  }
};

/// Whether a constant index of `op` is out of bounds of its axis.
bool hasOutOfBoundsIndex(IndexOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getSrc().getType());
  if (!type)
    return false;
  for (auto [k, i] : llvm::enumerate(op.getIndices())) {
    auto c = dyn_cast_or_null<IntegerAttr>(constAttr(i));
    if (c && (int64_t)k < type.getRank() && (c.getInt() < 0 || c.getInt() >= type.getDimSize(k)))
      return true;
  }
  return false;
}

/// index(index(a, i...), j...) -> index(a, i..., j...) on values. Not when
/// the inner index is out of bounds: the error is reported at that op (the
/// merged one would carry the outer op's location, a user of the one that
/// fails).
struct IndexOfIndex : OpRewritePattern<IndexOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IndexOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<IndexOp>();
    if (!inner || !isa<RankedTensorType>(inner.getSrc().getType()))
      return rewriter.notifyMatchFailure(op, "not an index of a value index");
    if (hasOutOfBoundsIndex(inner))
      return rewriter.notifyMatchFailure(op, "the inner index is out of bounds");
    SmallVector<Value> indices(inner.getIndices());
    llvm::append_range(indices, op.getIndices());
    rewriter.replaceOpWithNewOp<IndexOp>(op, inner.getSrc(), indices);
    return success();
  }
};

/// The constant leading index of `op` if it is in bounds of axis 0.
std::optional<int64_t> leadingIndex(IndexOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getSrc().getType());
  if (!type || op.getIndices().empty())
    return std::nullopt;
  Attribute attr = constAttr(op.getIndices().front());
  if (!attr || !isa<IntegerAttr>(attr))
    return std::nullopt;
  int64_t i = cast<IntegerAttr>(attr).getInt();
  if (i < 0 || i >= type.getDimSize(0))
    return std::nullopt;
  return i;
}

/// index(STACK(s0, s1, ...), c, rest...) -> index(s_c, rest...), and the same
/// on a dense constant (its row c).
struct IndexOfStack : OpRewritePattern<IndexOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IndexOp op, PatternRewriter &rewriter) const override {
    std::optional<int64_t> i = leadingIndex(op);
    if (!i)
      return rewriter.notifyMatchFailure(op, "no constant in-bounds leading index");
    Value elem;
    if (auto stack = op.getSrc().getDefiningOp<StackOp>()) {
      elem = stack.getSrcs()[*i];
    } else if (Attribute attr = constAttr(op.getSrc())) {
      auto type = cast<RankedTensorType>(op.getSrc().getType());
      Type rowType = getValueType(type.getShape().drop_front(), type.getElementType());
      SmallVector<Scalar> all = getAllElements(attr, type);
      int64_t n = all.size() / type.getDimSize(0);
      ArrayRef<Scalar> row = ArrayRef(all).slice(*i * n, n);
      SmallVector<Scalar> values(row.begin(), row.end());
      if (llvm::all_equal(values))
        values.resize(1);
      elem = ConstOp::create(rewriter, op.getLoc(), makeAttr(rowType, values));
    } else {
      return rewriter.notifyMatchFailure(op, "source is not a stack or a constant");
    }
    auto rest = op.getIndices().drop_front();
    if (rest.empty())
      rewriter.replaceOp(op, elem);
    else
      rewriter.replaceOpWithNewOp<IndexOp>(op, elem, SmallVector<Value>(rest));
    return success();
  }
};

/// Row-major helpers over a shape.
SmallVector<int64_t> unravel(int64_t i, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> out(shape.size());
  for (int64_t k = shape.size() - 1; k >= 0; --k) {
    out[k] = i % shape[k];
    i /= shape[k];
  }
  return out;
}
int64_t ravel(ArrayRef<int64_t> idx, ArrayRef<int64_t> shape) {
  int64_t i = 0;
  for (auto [x, s] : llvm::zip(idx, shape))
    i = i * s + x;
  return i;
}

/// Movement ops and REDUCE on a literal: compute them.
struct EvaluateMovement : RewritePattern {
  EvaluateMovement(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isa<ReshapeOp, ExpandOp, PermuteOp, ShrinkOp, ReduceOp>(op))
      return rewriter.notifyMatchFailure(op, "not a movement op or reduce");
    Value src = op->getOperand(0);
    Attribute attr = constAttr(src);
    Type outType = op->getResult(0).getType();
    if (!attr || isa<MemRefType>(outType))
      return rewriter.notifyMatchFailure(op, "source is not a literal");
    SmallVector<Scalar> flat = getAllElements(attr, src.getType());
    ArrayRef<int64_t> ishape = getShape(src.getType()), oshape = getShape(outType);
    int64_t nOut = 1;
    for (int64_t d : oshape)
      nOut *= d;
    SmallVector<Scalar> out;
    out.reserve(nOut);
    if (isa<ReshapeOp>(op)) {
      out = flat;
    } else if (isa<ExpandOp>(op)) {
      for (int64_t i = 0; i < nOut; ++i) {
        SmallVector<int64_t> idx = unravel(i, oshape);
        for (auto [x, s] : llvm::zip(idx, ishape))
          if (s == 1)
            x = 0;
        out.push_back(flat[ravel(idx, ishape)]);
      }
    } else if (auto permute = dyn_cast<PermuteOp>(op)) {
      ArrayRef<int64_t> perm = permute.getPerm();
      for (int64_t i = 0; i < nOut; ++i) {
        SmallVector<int64_t> o = unravel(i, oshape), idx(ishape.size());
        for (auto [k, p] : llvm::enumerate(perm))
          idx[p] = o[k];
        out.push_back(flat[ravel(idx, ishape)]);
      }
    } else if (auto shrink = dyn_cast<ShrinkOp>(op)) {
      for (int64_t i = 0; i < nOut; ++i) {
        SmallVector<int64_t> idx = unravel(i, oshape);
        for (auto [k, x] : llvm::enumerate(idx))
          x += shrink.getBound(k).first;
        out.push_back(flat[ravel(idx, ishape)]);
      }
    } else {
      auto reduce = cast<ReduceOp>(op);
      AluKind kind = reduce.getKind() == ReduceKind::Add ? AluKind::Add : AluKind::Max;
      Type dtype = getDType(outType);
      int64_t inner = nOut ? flat.size() / nOut : 0;
      for (int64_t i = 0; i < nOut; ++i) {
        Scalar acc = flat[i * inner];
        for (int64_t j = 1; j < inner; ++j) {
          std::optional<Scalar> r = execAlu(kind, dtype, {acc, flat[i * inner + j]});
          if (!r)
            return rewriter.notifyMatchFailure(op, "reduction step does not fold");
          acc = *r;
        }
        out.push_back(acc);
      }
    }
    if (out.size() > 1 && llvm::all_equal(out))
      out.resize(1);
    rewriter.replaceOpWithNewOp<ConstOp>(op, makeAttr(outType, out));
    return success();
  }
};

struct UopEvaluatePass : uop::impl::UopEvaluatePassBase<UopEvaluatePass> {
  using Base::Base;
  void runOnOperation() override {
    // The calls first, in one linear sweep: the rules would inline them too,
    // but the greedy driver walks each op's ancestors, O(depth) per op, so
    // 10,000 nested calls took 13 s. The rules inline every call anyway, so
    // doing it first changes what they start from, not where they end.
    inlineAllCalls(getOperation());
    RewritePatternSet patterns(&getContext());
    BoundsCache cache;
    populateSymbolicPatterns(patterns, &cache);
    populateEvaluatePatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    // The greedy driver (not the seed's order), then sharing; an error on
    // the op if it does not converge.
    SeedOrderRewriteConfig config;
    config.seedOrder = false;
    config.maxIterations = maxIterations;
    config.cache = &cache;
    config.name = "uop-evaluate";
    if (failed(applySeedOrderRewrite(getOperation(), frozen, config)))
      return signalPassFailure();
    // A constant index out of bounds of a stack is an error at that index.
    // Errors here are at the op's location (emitError(Location)), not on the
    // op: Operation::emitError adds a "see current operation" note, a dump of
    // the op, to what is one clean `file:line:col: error:` line.
    bool failed = false;
    getOperation()->walk([&](IndexOp op) {
      auto type = dyn_cast<RankedTensorType>(op.getSrc().getType());
      if (!type || op.getIndices().empty() ||
          !(op.getSrc().getDefiningOp<StackOp>() || constAttr(op.getSrc())))
        return;
      auto idx = dyn_cast_or_null<IntegerAttr>(constAttr(op.getIndices().front()));
      if (!idx)
        return;
      int64_t i = idx.getInt(), n = type.getDimSize(0);
      if (i < 0 || i >= n) {
        emitError(op.getLoc(), "index ") << i << " out of bounds for stack of " << n;
        failed = true;
      }
    });
    // An integer division or modulo whose divisor folded to 0 is left
    // unfolded (the seed raises ZeroDivisionError): an error at the op,
    // not a program that still divides by zero (issue 32).
    getOperation()->walk([&](Operation *op) {
      if (!isa<FloorDivOp, FloorModOp>(op))
        return;
      Value divisor = op->getOperand(1);
      if (!getElementTypeOrSelf(divisor.getType()).isInteger(32))
        return;
      Attribute c = constAttr(divisor);
      bool zero = false;
      if (auto i = dyn_cast_or_null<IntegerAttr>(c))
        zero = i.getValue().isZero();
      else if (auto d = dyn_cast_or_null<DenseIntElementsAttr>(c))
        zero = llvm::any_of(d.getValues<APInt>(), [](const APInt &v) { return v.isZero(); });
      if (zero) {
        emitError(op->getLoc(), "integer ")
            << (isa<FloorDivOp>(op) ? "division" : "modulo") << " by zero";
        failed = true;
      }
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace

void mlir::uop::populateEvaluatePatterns(RewritePatternSet &patterns) {
  patterns.add<EvaluateMovement, IndexNone, IndexOfIndex, IndexOfStack, PushAluThroughStack>(
      patterns.getContext());
  populateInlineCallsPatterns(patterns);
}
