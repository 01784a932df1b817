//===- RuntimeChecks.cpp - uop-linearize's run-time checks ------*- C++ -*-===//
//
// A check is an `scf.if` on its failure: the first failing check (an
// atomic count of failures was 0) stores its id + 1, value and bound in the
// record; the checked access or division then goes on harmlessly (element
// 0, divisor 1), so that the kernel finishes and the host reports the
// record. Vector lanes fail together: one branch on whether any lane does.
//
//===----------------------------------------------------------------------===//

#include "RuntimeChecks.h"

#include "Uop/Codegen/LaneLegality.h"
#include "Lanes.h"

#include "Uop/Conversion/Passes.h"

#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::uop;

std::optional<std::pair<int64_t, int64_t>> RuntimeChecks::rangeOf(Value v) const {
  if (auto *state = solver.lookupState<dataflow::IntegerValueRangeLattice>(v)) {
    const IntegerValueRange &range = state->getValue();
    if (!range.isUninitialized())
      return std::make_pair(range.getValue().smin().getSExtValue(),
                            range.getValue().smax().getSExtValue());
  }
  return std::nullopt;
}

/// The record's type: kCheckRecordSize i32 words.
static MemRefType recordType(OpBuilder &b) {
  return MemRefType::get({::uop::rt::kCheckRecordSize}, b.getI32Type());
}

/// The constant index `v`.
static Value constIndex(OpBuilder &b, int64_t v) {
  return arith::ConstantIndexOp::create(b, b.getUnknownLoc(), v);
}

void RuntimeChecks::addRecord(Block *entry, Location loc) {
  // Always: a heap allocation is checked even without `checks` (the record
  // goes again in finish() when nothing is checked).
  record = entry->addArgument(recordType(b), loc);
}

Value RuntimeChecks::emitCheck(Location loc, StringRef kind, Value bad, Value value, Value bound) {
  int64_t id = checkList.size();
  checkList.push_back(b.getDictionaryAttr(
      {b.getNamedAttr("kind", b.getStringAttr(kind)), b.getNamedAttr("loc", LocationAttr(loc))}));
  // Vector lanes fail together: one branch on whether any lane does, so the
  // lanes that pass cost a compare and a reduction, no control flow per lane.
  Value lanesBad = isa<VectorType>(bad.getType()) ? bad : Value();
  if (lanesBad)
    bad = vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, lanesBad);
  OpBuilder::InsertionGuard guard(b);
  auto ifBad = scf::IfOp::create(b, loc, bad, /*withElseRegion=*/false);
  checkIfs.push_back(ifBad);
  b.setInsertionPoint(ifBad.thenBlock()->getTerminator());
  Value one = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1);
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  Value old = memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, one, record,
                                          ValueRange{constIndex(b, 0)});
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, old, zero);
  auto ifFirst = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
  b.setInsertionPoint(ifFirst.thenBlock()->getTerminator());
  if (lanesBad) {
    // The first failing lane's value and bound (the lane the loop's
    // iterations would have failed at first), picked only on this path.
    int64_t width = cast<VectorType>(lanesBad.getType()).getNumElements();
    Value v = laneOf(b, loc, value, width - 1), w = laneOf(b, loc, bound, width - 1);
    for (int64_t l = width - 2; l >= 0; --l) {
      Value lb = vector::ExtractOp::create(b, loc, lanesBad, ArrayRef<int64_t>{l});
      if (isa<VectorType>(value.getType()))
        v = arith::SelectOp::create(b, loc, lb, laneOf(b, loc, value, l), v);
      if (isa<VectorType>(bound.getType()))
        w = arith::SelectOp::create(b, loc, lb, laneOf(b, loc, bound, l), w);
    }
    value = v, bound = w;
  }
  Value idPlusOne = arith::ConstantIntOp::create(b, loc, b.getI32Type(), id + 1);
  memref::StoreOp::create(b, loc, idPlusOne, record, ValueRange{constIndex(b, 1)});
  memref::StoreOp::create(b, loc, value, record, ValueRange{constIndex(b, 2)});
  memref::StoreOp::create(b, loc, bound, record, ValueRange{constIndex(b, 3)});
  return bad;
}

Value RuntimeChecks::checkDivisor(Operation *op, Value x, Value y) {
  // A vector divisor (inside the lanes) is checked lane by lane, like the
  // loop's iterations would be: 0 or INT_MIN / -1 in any lane fails.
  if (!enabled || !getElementTypeOrSelf(y.getType()).isInteger(32))
    return y;
  Location loc = op->getLoc();
  bool mod = isa<FloorModOp>(op);
  auto rx = rangeOf(op->getOperand(0)), ry = rangeOf(op->getOperand(1));
  bool mayBeZero = !ry || (ry->first <= 0 && ry->second >= 0);
  bool mayOverflow =
      (!rx || rx->first <= INT32_MIN) && (!ry || (ry->first <= -1 && ry->second >= -1));
  auto i32 = [&](int64_t v) { return constLike(b, y, b.getI32IntegerAttr(v)); };
  Value bad;
  if (mayBeZero) {
    bad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, i32(0));
    emitCheck(loc, mod ? "mod-zero" : "div-zero", bad, x, y);
  }
  if (mayOverflow) {
    Value isMin = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, i32(INT32_MIN));
    Value isMinusOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, i32(-1));
    Value overflow = arith::AndIOp::create(b, loc, isMin, isMinusOne);
    emitCheck(loc, mod ? "mod-overflow" : "div-overflow", overflow, x, y);
    bad = bad ? arith::OrIOp::create(b, loc, bad, overflow).getResult() : overflow;
  }
  if (!bad)
    return y;
  // Divisor 1 in every failing lane: the division itself cannot trap.
  return arith::SelectOp::create(b, loc, bad, i32(1), y);
}

void RuntimeChecks::checkIndex(IndexOp op, Value &i, Value &base, int64_t stride, int64_t lanes) {
  if (!enabled)
    return;
  // In bounds of the memory as declared, unless the bounds analysis proves
  // it (the affine indices of rangeify always are). The analysis ranges over
  // the uop graph, whose values hold every iteration of the lanes' loop: a
  // proven index is proven in every lane.
  Location loc = op.getLoc();
  Operation *root = rootMemory(op);
  int64_t n = root ? getNumElements(root->getResult(0).getType()) : 0;
  auto r = rangeOf(op.getIndices()[0]);
  if (root && r && r->first >= 0 && r->second < n)
    return;
  // A vector of lane indices: every lane in [0, n).
  Value bound = arith::ConstantIntOp::create(b, loc, b.getI32Type(), n);
  Value bad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, i, lanesLike(b, i, bound));
  Value anyBad = emitCheck(loc, "index", bad, i, bound);
  Value zero = constLike(b, i, b.getI32IntegerAttr(0));
  if (base && stride >= 0 && (lanes - 1) * stride < n) {
    // Lanes from 0 are all in bounds: the access stays one vector access,
    // from 0 when a lane fails.
    Value zero0 = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    base = arith::SelectOp::create(b, loc, anyBad, zero0, base);
  } else {
    // Each failing lane reads (writes) element 0 instead, lane by lane.
    i = arith::SelectOp::create(b, loc, bad, zero, i);
    base = Value();
  }
}

Value RuntimeChecks::checkAxisIndex(CheckIndexOp op, Value i) {
  if (!enabled)
    return i;
  int64_t n = op.getSize();
  auto r = rangeOf(op.getIndex());
  if (r && r->first >= 0 && r->second < n)
    return i;
  Location loc = op.getLoc();
  Value bound = arith::ConstantIntOp::create(b, loc, b.getI32Type(), n);
  Value bad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, i, lanesLike(b, i, bound));
  emitCheck(loc, "axis", bad, i, bound);
  return arith::SelectOp::create(b, loc, bad, constLike(b, i, b.getI32IntegerAttr(0)), i);
}

void RuntimeChecks::checkAlloc(Operation *op, Value mem, int64_t bytes) {
  Location loc = op->getLoc();
  Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, mem);
  Value bad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ptr, constIndex(b, 0));
  // The size in the record's two words: its low 31 bits as the value, the
  // rest as the bound.
  auto i32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v); };
  emitCheck(loc, "alloc", bad, i32(bytes & 0x7fffffff), i32(bytes >> 31));
  allocChecks.push_back({checkIfs.back(), bad});
}

void RuntimeChecks::guardAfterAllocs() {
  // Latest first: an earlier allocation's guard then holds the later ones'.
  for (auto &[ifBad, bad] : llvm::reverse(allocChecks)) {
    Block *block = ifBad->getBlock();
    SmallVector<Operation *> rest;
    for (Operation *op = ifBad->getNextNode(); op && op != block->getTerminator();
         op = op->getNextNode())
      if (!isa<memref::DeallocOp>(op)) // every allocation is freed (null is)
        rest.push_back(op);
    if (rest.empty())
      continue;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfter(ifBad);
    Location loc = ifBad->getLoc();
    Value ok = arith::XOrIOp::create(b, loc, bad,
                                     arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
    auto ifOk = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
    Operation *term = ifOk.thenBlock()->getTerminator();
    for (Operation *op : rest)
      op->moveBefore(term);
  }
}

/// Whether `op` holds a GPU barrier.
static bool holdsBarrier(Operation *op) {
  return op->walk([](gpu::BarrierOp) { return WalkResult::interrupt(); }).wasInterrupted();
}

void RuntimeChecks::stopAtFirstFailure(func::FuncOp func) {
  // The loops around the checks, innermost first, each once.
  llvm::SetVector<Operation *> loops;
  for (Operation *check : checkIfs)
    for (Operation *p = check->getParentOp(); p && p != func; p = p->getParentOp())
      if (isa<scf::ForOp, scf::ParallelOp>(p))
        loops.insert(p);
  auto noFailure = [&](Location loc) {
    Value n = memref::LoadOp::create(b, loc, record, ValueRange{constIndex(b, 0)});
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, n,
                                 arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0))
        .getResult();
  };
  OpBuilder::InsertionGuard guard(b);
  for (Operation *loop : loops) {
    if (holdsBarrier(loop))
      continue; // every GPU thread must reach the barrier
    Location loc = loop->getLoc();
    if (auto par = dyn_cast<scf::ParallelOp>(loop)) {
      // An iteration starts only while nothing failed.
      Block *body = par.getBody();
      SmallVector<Operation *> ops;
      for (Operation &op : body->without_terminator())
        ops.push_back(&op);
      b.setInsertionPointToStart(body);
      auto ifOk = scf::IfOp::create(b, loc, noFailure(loc), /*withElseRegion=*/false);
      for (Operation *op : ops)
        op->moveBefore(ifOk.thenBlock()->getTerminator());
      continue;
    }
    // for (i = lb; i < ub && record[0] == 0; i += step)
    auto f = cast<scf::ForOp>(loop);
    if (f.getNumResults() != 0)
      continue; // the emitter's loops carry no values
    b.setInsertionPoint(f);
    Type ivType = f.getInductionVar().getType();
    auto w = scf::WhileOp::create(b, loc, TypeRange{ivType}, ValueRange{f.getLowerBound()});
    Block *before = b.createBlock(&w.getBefore(), {}, {ivType}, {loc});
    Value iv = before->getArgument(0);
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, f.getUpperBound());
    Value go = arith::AndIOp::create(b, loc, inRange, noFailure(loc));
    scf::ConditionOp::create(b, loc, go, ValueRange{iv});
    Block *after = b.createBlock(&w.getAfter(), {}, {ivType}, {loc});
    Block *body = f.getBody();
    f.getInductionVar().replaceAllUsesWith(after->getArgument(0));
    after->getOperations().splice(after->end(), body->getOperations(), body->begin(),
                                  std::prev(body->end()));
    b.setInsertionPointToEnd(after);
    Value next = arith::AddIOp::create(b, loc, after->getArgument(0), f.getStep());
    scf::YieldOp::create(b, loc, ValueRange{next});
    f.erase();
  }
}

void RuntimeChecks::finish(func::FuncOp func, Block *entry, SmallVectorImpl<Type> &argTypes) {
  guardAfterAllocs();
  if (!checkList.empty())
    stopAtFirstFailure(func);
  // The check record is an argument only of a kernel that checks something.
  if (record && checkList.empty())
    entry->eraseArgument(cast<BlockArgument>(record).getArgNumber());
  else if (record)
    argTypes.push_back(recordType(b));
  if (!checkList.empty())
    func->setAttr(kChecksAttrName, b.getArrayAttr(checkList));
  else
    func->removeAttr(kChecksAttrName);
}
