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
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

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

void RuntimeChecks::finish(func::FuncOp func, Block *entry, SmallVectorImpl<Type> &argTypes) {
  guardAfterAllocs();
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
