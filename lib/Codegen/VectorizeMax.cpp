//===- VectorizeMax.cpp - exact vector max/min reductions -------*- C++ -*-===//
//
// uop-vectorize-max: a loop of float max (or min) accumulations, the
// seed's `(a>b)?a:b` on a scalar accumulator, becomes vector lanes that are
// checked: the lanes' result is the sequential loop's wherever the row has
// no NaN and its maximum is not a zero (the only inputs whose result depends
// on the order); elsewhere the original loop runs. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "Uop/Codegen/Passes.h"

#include "Uop/IR/UopTarget.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPVECTORIZEMAXPASS
#include "Uop/Codegen/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;

namespace {

/// One accumulation: acc = select(cmpf(acc, x) or cmpf(x, acc), ...) over
/// a load `x` contiguous in the loop, stored back into `acc`.
struct Accumulation {
  memref::LoadOp acc, x;
  arith::CmpFOp cmp;
  arith::SelectOp select;
  memref::StoreOp store;
};

/// The same compare-and-select as `a` with `acc` and `x` in their places.
Value combine(OpBuilder &b, Location loc, Accumulation a, Value acc, Value x) {
  auto pick = [&](Value v) { return v == a.acc.getResult() ? acc : x; };
  Value c = arith::CmpFOp::create(b, loc, a.cmp.getPredicate(), pick(a.cmp.getLhs()),
                                  pick(a.cmp.getRhs()));
  return arith::SelectOp::create(b, loc, c, pick(a.select.getTrueValue()),
                                 pick(a.select.getFalseValue()));
}

/// Whether `v` is `iv` plus things defined outside `loop` (through addi
/// and index casts): a load at it walks memory with stride 1 in the loop.
bool strideOne(Value v, scf::ForOp loop) {
  while (auto cast = v.getDefiningOp<arith::IndexCastOp>())
    v = cast.getIn();
  if (v == loop.getInductionVar())
    return true;
  auto add = v.getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  for (int k = 0; k < 2; ++k)
    if (loop.isDefinedOutsideOfLoop(add->getOperand(1 - k)) && strideOne(add->getOperand(k), loop))
      return true;
  return false;
}

/// The index arithmetic a loop body may hold besides its accumulations
/// (cloned as it is into the vector loop).
bool isIndexArith(Operation *op) {
  return isa<arith::AddIOp, arith::IndexCastOp, arith::ConstantOp, arith::MulIOp>(op);
}

/// The loop's accumulations, or none when its body is anything else.
SmallVector<Accumulation> matchLoop(scf::ForOp loop) {
  SmallVector<Accumulation> accs;
  Block *body = loop.getBody();
  llvm::SmallPtrSet<Operation *, 32> covered;
  llvm::SmallPtrSet<Value, 8> accMems, readMems;
  for (Operation &op : body->without_terminator()) {
    auto store = dyn_cast<memref::StoreOp>(&op);
    if (!store)
      continue;
    Accumulation a;
    a.store = store;
    Value mem = store.getMemRef();
    auto type = dyn_cast<MemRefType>(mem.getType());
    if (!type || type.getNumElements() != 1 || !type.getElementType().isF32() ||
        !loop.isDefinedOutsideOfLoop(mem) || !mem.getDefiningOp<memref::AllocaOp>() ||
        !llvm::all_of(store.getIndices(),
                      [&](Value i) { return loop.isDefinedOutsideOfLoop(i); }) ||
        !accMems.insert(mem).second)
      return {};
    a.select = store.getValue().getDefiningOp<arith::SelectOp>();
    if (!a.select || a.select->getBlock() != body || !a.select->hasOneUse())
      return {};
    a.cmp = a.select.getCondition().getDefiningOp<arith::CmpFOp>();
    if (!a.cmp || a.cmp->getBlock() != body || !a.cmp->hasOneUse())
      return {};
    using P = arith::CmpFPredicate;
    P pred = a.cmp.getPredicate();
    if (pred != P::OGT && pred != P::OGE && pred != P::OLT && pred != P::OLE)
      return {};
    Value t = a.select.getTrueValue(), f = a.select.getFalseValue();
    auto lt = t.getDefiningOp<memref::LoadOp>(), lf = f.getDefiningOp<memref::LoadOp>();
    if (!lt || !lf)
      return {};
    a.acc = lt.getMemRef() == mem ? lt : lf;
    a.x = lt.getMemRef() == mem ? lf : lt;
    // The compare is of the same two values, and each load feeds only the
    // compare and the select.
    if (a.acc == a.x || a.acc.getMemRef() != mem || a.acc.getIndices() != store.getIndices() ||
        !((a.cmp.getLhs() == t && a.cmp.getRhs() == f) ||
          (a.cmp.getLhs() == f && a.cmp.getRhs() == t)))
      return {};
    for (memref::LoadOp l : {a.acc, a.x})
      if (l->getBlock() != body ||
          llvm::any_of(l->getUsers(), [&](Operation *u) { return u != a.cmp && u != a.select; }))
        return {};
    if (a.x.getIndices().size() != 1 || !strideOne(a.x.getIndices()[0], loop) ||
        a.x.getMemRef() == mem)
      return {};
    readMems.insert(a.x.getMemRef());
    covered.insert({a.acc, a.x, a.cmp, a.select, a.store});
    accs.push_back(a);
  }
  if (accs.empty() || llvm::any_of(readMems, [&](Value m) { return accMems.contains(m); }))
    return {};
  // Everything else is index arithmetic feeding the loads.
  for (Operation &op : body->without_terminator()) {
    if (covered.contains(&op))
      continue;
    if (!isIndexArith(&op))
      return {};
    for (Operation *u : op.getUsers())
      if (!isIndexArith(u) && !isa<memref::LoadOp>(u))
        return {};
  }
  return accs;
}

struct UopVectorizeMaxPass : mlir::uop::impl::UopVectorizeMaxPassBase<UopVectorizeMaxPass> {
  using Base::Base;
  void runOnOperation() override {
    if (lanes != 0 && (lanes < 2 || lanes > 64)) {
      getOperation().emitError("uop-vectorize-max: lanes must be 0 or in [2, 64], got ")
          << static_cast<int64_t>(lanes);
      return signalPassFailure();
    }
    // 0: the f32 lanes of the target's vectors (x86-64's 128-bit SSE2
    // where the target names no vector unit).
    width = lanes;
    if (width == 0) {
      uop::TargetAttr target = uop::getTargetOrDefault(getOperation(), uop::TargetKind::CPU);
      width = std::max<int64_t>(target.getVectorBits(), 128) / 32;
    }
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop.getBody()->getOps<LoopLikeOpInterface>().empty())
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      if (rewrite(loop))
        ++numVectorized;
  }

  bool rewrite(scf::ForOp loop) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                           ub = getConstantIntValue(loop.getUpperBound()),
                           step = getConstantIntValue(loop.getStep());
    if (!lb || !ub || !step || *step != 1 || !loop.getInitArgs().empty())
      return false;
    int64_t trip = *ub - *lb;
    if (trip < 2 * width || trip % width != 0)
      return false;
    SmallVector<Accumulation> accs = matchLoop(loop);
    if (accs.empty())
      return false;

    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Type f32 = b.getF32Type(), i1 = b.getI1Type();
    auto vf = VectorType::get({width}, f32);
    auto vi1 = VectorType::get({width}, i1);
    SmallVector<Value> before;
    for (Accumulation &a : accs)
      before.push_back(memref::LoadOp::create(b, loc, a.acc.getMemRef(), a.acc.getIndices()));
    // Lanes start at -inf: the first compare-and-select of any lane picks
    // its first element (or keeps -inf, the same value), whichever the op.
    Value start = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(vf, b.getF32FloatAttr(-std::numeric_limits<float>::infinity())));
    Value noNan = arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vi1, false));
    SmallVector<Value> inits(accs.size(), start);
    inits.append(accs.size(), noNan);
    Type ivType = loop.getInductionVar().getType();
    Value vstep = arith::ConstantOp::create(b, loc, b.getIntegerAttr(ivType, width));
    auto vloop = scf::ForOp::create(
        b, loc, loop.getLowerBound(), loop.getUpperBound(), vstep, inits,
        [&](OpBuilder &nb, Location l, Value j, ValueRange iter) {
          IRMapping map;
          map.map(loop.getInductionVar(), j);
          // The index arithmetic, as it is, at j.
          for (Operation &op : loop.getBody()->without_terminator())
            if (isIndexArith(&op))
              nb.clone(op, map);
          SmallVector<Value> next(accs.size()), nans(accs.size());
          for (auto [k, a] : llvm::enumerate(accs)) {
            Value vx = vector::LoadOp::create(nb, l, vf, a.x.getMemRef(),
                                              ValueRange{map.lookup(a.x.getIndices()[0])});
            next[k] = combine(nb, l, a, iter[k], vx);
            Value nan = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNO, vx, vx);
            nans[k] = arith::OrIOp::create(nb, l, iter[accs.size() + k], nan);
          }
          next.append(nans);
          scf::YieldOp::create(nb, l, next);
        });
    // The lanes in order with the same op; the loop's value unless a NaN
    // was seen or the result is a zero.
    Value bad = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
    SmallVector<Value> result;
    for (auto [k, a] : llvm::enumerate(accs)) {
      Value v = vloop.getResult(k);
      Value m = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{0});
      for (int64_t l = 1; l < width; ++l)
        m = combine(b, loc, a, m, vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{l}));
      Value sawNan = vector::ReductionOp::create(b, loc, vector::CombiningKind::OR,
                                                 vloop.getResult(accs.size() + k));
      Value zero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m,
                                         arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0)));
      bad = arith::OrIOp::create(b, loc, bad, arith::OrIOp::create(b, loc, sawNan, zero));
      result.push_back(combine(b, loc, a, before[k], m));
    }
    auto ifOp = scf::IfOp::create(b, loc, bad, /*withElseRegion=*/true);
    // Then: the scalar loop, unchanged.
    loop->moveBefore(ifOp.thenBlock()->getTerminator());
    // Else: the accumulators get the lanes' result.
    OpBuilder eb = ifOp.getElseBodyBuilder();
    for (auto [k, a] : llvm::enumerate(accs))
      memref::StoreOp::create(eb, loc, result[k], a.store.getMemRef(), a.store.getIndices());
    return true;
  }

  /// The vector lanes of this run (the option, or the target's).
  int64_t width = 8;
};

} // namespace
