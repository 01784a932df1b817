//===- PrefetchNext.cpp - fetch the next row while this one computes -*- C++ -*-===//
//
// uop-prefetch-next applies `#uop.opts<prefetch_next = S>` to a linearized
// kernel: in a loop over rows whose body walks a row of a buffer in two or
// more loops, the second of them is strip-mined and each strip prefetches
// what the same strip reads in the next row. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "Uop/Codegen/Passes.h"

#include "Uop/IR/UopTarget.h"
#include "Uop/IR/UopOps.h"

#include "LoopAccess.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <map>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPPREFETCHNEXTPASS
#include "Uop/Codegen/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// A loop over rows: the one induction variable of an scf.for or a
/// one-dimensional scf.parallel, with its bounds.
struct RowLoop {
  Operation *op;
  Value iv, step, upper;
  Block *body;
};

std::optional<RowLoop> asRowLoop(Operation *op) {
  if (auto f = dyn_cast<scf::ForOp>(op))
    return RowLoop{op, f.getInductionVar(), f.getStep(), f.getUpperBound(), f.getBody()};
  if (auto p = dyn_cast<scf::ParallelOp>(op); p && p.getNumLoops() == 1)
    return RowLoop{op, p.getInductionVars()[0], p.getStep()[0], p.getUpperBound()[0], p.getBody()};
  return std::nullopt;
}

/// A load of a row: contiguous in its inner loop (each iteration reads the
/// `width` elements after the last one's), a line or more away in the next
/// row.
struct RowLoad {
  BufferLoad load;
  LinearIndex form; // coefs: {inner iv, row iv}
};

/// The row loads directly in the body of `inner`, an innermost loop of the
/// row loop `row`.
SmallVector<RowLoad> rowLoads(scf::ForOp inner, const RowLoop &row, int64_t rowStep,
                              int64_t lineBytes) {
  SmallVector<RowLoad> out;
  std::optional<int64_t> step = getConstantIntValue(inner.getStep());
  if (!step || *step <= 0)
    return out;
  for (Operation &op : *inner.getBody()) {
    std::optional<BufferLoad> l = asBufferLoad(&op);
    if (!l)
      continue;
    std::optional<LinearIndex> f =
        linearIndexIn(l->index, {inner.getInductionVar(), row.iv}, row.op);
    if (f && f->coefs[0] * *step == l->width &&
        std::abs(f->coefs[1] * rowStep) * l->elemBytes() >= lineBytes)
      out.push_back({*l, *f});
  }
  return out;
}

/// What tells the rows of one buffer apart from another's: the buffer and
/// the form of the index but its constant (the upcast copies of a row
/// share a key).
using RowKey = std::pair<const void *, SmallVector<std::pair<const void *, int64_t>>>;
RowKey rowKey(const RowLoad &r) {
  return {r.load.memref.getAsOpaquePointer(), r.form.key()};
}

/// Clones the index math of `v` for another iteration: `map` sends the
/// induction variables to their new values, and every op inside `scope`
/// that `v` depends on is cloned at `b` (pure ops only: null otherwise).
/// Values from outside `scope` are used as they are.
Value cloneIndex(Value v, IRMapping &map, OpBuilder &b, Operation *scope) {
  if (Value m = map.lookupOrNull(v))
    return m;
  Operation *op = v.getDefiningOp();
  if (!op)
    return scope->isAncestor(cast<BlockArgument>(v).getOwner()->getParentOp()) ? Value() : v;
  if (!scope->isProperAncestor(op))
    return v;
  if (op->getNumRegions() != 0 || op->getNumResults() != 1 || !isPure(op))
    return nullptr;
  for (Value operand : op->getOperands())
    if (!cloneIndex(operand, map, b, scope))
      return nullptr;
  return b.clone(*op, map)->getResult(0);
}

/// Strip-mines `inner` (an innermost loop of `row`) into strips of `strip`
/// iterations, each first prefetching the lines its `loads` read in the
/// next row. False where the loop does not allow it (then it is left).
bool stripMineWithPrefetch(scf::ForOp inner, const RowLoop &row, ArrayRef<RowLoad> loads,
                           int64_t elems, int64_t lineBytes) {
  if (inner.getNumResults() != 0)
    return false;
  std::optional<int64_t> lb = getConstantIntValue(inner.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(inner.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(inner.getStep());
  if (!lb || !ub || !step || *step <= 0 || *ub <= *lb)
    return false;
  int64_t trips = llvm::divideCeil(*ub - *lb, *step);
  int64_t width = loads.front().load.width;
  int64_t lineElems = std::max<int64_t>(1, lineBytes / loads.front().load.elemBytes());
  // Strips of `elems` elements, halved until they divide the trip count
  // (so every strip is whole and every address prefetched is read), and
  // at least a line wide.
  int64_t strip = std::max<int64_t>(1, elems / width);
  while (strip > 1 && trips % strip != 0)
    strip /= 2;
  if (trips % strip != 0 || strip * width < lineElems || strip >= trips)
    return false;

  Location loc = inner.getLoc();
  Type ivType = inner.getInductionVar().getType();
  OpBuilder b(inner);
  auto cst = [&](Type t, int64_t v) -> Value {
    if (t.isIndex())
      return arith::ConstantIndexOp::create(b, loc, v);
    return arith::ConstantIntOp::create(b, loc, t, v);
  };
  // The next row, or this one in the last iteration.
  Value next = arith::AddIOp::create(b, loc, row.iv, row.step);
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, next, row.upper);
  Value nextRow = arith::SelectOp::create(b, loc, inRange, next, row.iv);

  auto strips = scf::ForOp::create(b, loc, inner.getLowerBound(), inner.getUpperBound(),
                                   cst(ivType, strip * *step));
  b.setInsertionPointToStart(strips.getBody());
  Value j0 = strips.getInductionVar();
  // One prefetch a line of each row stream: the loads of a row key whose
  // constants differ by less than a strip share one.
  std::map<RowKey, SmallVector<const RowLoad *>> streams;
  for (const RowLoad &l : loads)
    streams[rowKey(l)].push_back(&l);
  for (auto &[key, group] : streams) {
    llvm::sort(group, [](auto *x, auto *y) { return x->form.cst < y->form.cst; });
    int64_t covered = INT64_MIN;
    for (const RowLoad *l : group) {
      int64_t span = strip * l->load.width;
      if (covered != INT64_MIN && l->form.cst < covered)
        continue;
      covered = l->form.cst + span;
      IRMapping map;
      map.map(inner.getInductionVar(), j0);
      map.map(row.iv, nextRow);
      Value base = cloneIndex(l->load.index, map, b, row.op);
      if (!base) {
        strips.erase();
        for (Value v : {nextRow, inRange, next})
          v.getDefiningOp()->erase();
        return false;
      }
      int64_t lineElems = std::max<int64_t>(1, lineBytes / l->load.elemBytes());
      for (int64_t q = 0; q < span; q += lineElems) {
        Value index = q ? arith::AddIOp::create(b, loc, base, cst(base.getType(), q)) : base;
        memref::PrefetchOp::create(b, loc, l->load.memref, ValueRange{index}, /*isWrite=*/false,
                                   /*localityHint=*/3, /*isDataCache=*/true);
      }
    }
  }

  // The loop becomes the strip's: a constant trip count, its old induction
  // variable the strip's start plus its own.
  inner->moveBefore(strips.getBody(), std::prev(strips.getBody()->end()));
  b.setInsertionPoint(inner);
  inner.setLowerBound(cst(ivType, 0));
  inner.setUpperBound(cst(ivType, strip * *step));
  b.setInsertionPointToStart(inner.getBody());
  Value iv = inner.getInductionVar();
  // (In range: j0 + iv < the loop's upper bound, a value of its type.)
  auto j = arith::AddIOp::create(b, loc, j0, iv, arith::IntegerOverflowFlags::nsw);
  iv.replaceAllUsesExcept(j, j);
  return true;
}

struct UopPrefetchNextPass : mlir::uop::impl::UopPrefetchNextPassBase<UopPrefetchNextPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto opts = func->getAttrOfType<OptsAttr>(kOptsAttrName);
    if (!opts || opts.getPrefetchNext() == 0)
      return;
    // The target's cache line: what one prefetch brings.
    int64_t lineBytes = getTargetOrDefault(func, TargetKind::CPU).getCacheLine();
    SmallVector<RowLoop> rows;
    func.walk([&](Operation *op) {
      if (std::optional<RowLoop> r = asRowLoop(op))
        rows.push_back(*r);
    });
    for (const RowLoop &row : rows) {
      std::optional<int64_t> rowStep = getConstantIntValue(row.step);
      if (!rowStep || *rowStep <= 0)
        continue;
      // The innermost loops directly in the row's body, in order, with
      // the rows they load; per row key, how many loops loaded it so far.
      std::map<RowKey, int> seen;
      SmallVector<std::pair<scf::ForOp, SmallVector<RowLoad>>> todo;
      for (Operation &op : *row.body) {
        auto inner = dyn_cast<scf::ForOp>(op);
        if (!inner || !isInnermost(inner))
          continue;
        std::map<RowKey, SmallVector<RowLoad>> byKey;
        for (RowLoad &l : rowLoads(inner, row, *rowStep, lineBytes))
          byKey[rowKey(l)].push_back(l);
        SmallVector<RowLoad> second;
        for (auto &[key, loads] : byKey)
          if (++seen[key] == 2)
            llvm::append_range(second, loads);
        if (!second.empty())
          todo.push_back({inner, std::move(second)});
      }
      for (auto &[inner, loads] : todo)
        numStripMined += stripMineWithPrefetch(inner, row, loads, opts.getPrefetchNext(), lineBytes);
    }
  }
};

} // namespace
