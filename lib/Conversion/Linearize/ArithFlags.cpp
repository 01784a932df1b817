//===- ArithFlags.cpp - fast-math and overflow flags of ALU ops -*- C++ -*-===//

#include "ArithFlags.h"

#include "Uop/Codegen/LaneLegality.h"

#include "Uop/IR/UopOps.h"

using namespace mlir;
using namespace mlir::uop;

ArithFlags ArithFlags::analyze(ArrayRef<Operation *> order) {
  ArithFlags flags;
  flags.findReductions(order);
  flags.findAddressMath(order);
  return flags;
}

arith::FastMathFlags ArithFlags::fastMath(Operation *op) const {
  // reassoc, for LLVM to vectorize the accumulation, but not nsz: with
  // both, InstCombine also factors sum(c * b[j]) into c * sum(b[j]), which
  // turns the NaN of inf * b[0] + inf * -b[1] into -inf (found by
  // scripts/fuzz-diff.sh; test/Integration/CPU/reduce-no-factoring.uir).
  if (reductions.contains(op))
    return arith::FastMathFlags::reassoc | arith::FastMathFlags::contract;
  if (contracted.contains(op))
    return arith::FastMathFlags::contract;
  return arith::FastMathFlags::none;
}

arith::IntegerOverflowFlags ArithFlags::overflow(Operation *op) const {
  return addressMath.contains(op) ? arith::IntegerOverflowFlags::nsw
                                  : arith::IntegerOverflowFlags::none;
}

void ArithFlags::findReductions(ArrayRef<Operation *> order) {
  // A float add/max/mul stored into an alloc it also loads from (through the
  // same alloc) is an accumulation: it may be reassociated.
  for (Operation *op : order) {
    auto store = dyn_cast<StoreOp>(op);
    if (!store)
      continue;
    Operation *mem = rootMemory(store.getPtr().getDefiningOp());
    if (!mem || !isa<AllocOp>(mem))
      continue;
    Operation *v = store.getValue().getDefiningOp();
    if (!v || !isa<AddOp, MaxOp, MulOp>(v) || !isFloatDType(store.getValue().getType()))
      continue;
    bool accumulates = llvm::any_of(v->getOperands(), [&](Value x) {
      auto load = x.getDefiningOp<LoadOp>();
      return load && rootMemory(load.getPtr().getDefiningOp()) == mem;
    });
    if (!accumulates)
      continue;
    reductions.insert(v);
    if (isa<AddOp>(v))
      for (Value x : v->getOperands())
        if (auto mul = x.getDefiningOp<MulOp>())
          contracted.insert(mul);
  }
}

/// Integer adds and muls whose every use is (through other such ops) the index
/// of a memory access. Their overflow would address out of bounds anyway, so
/// they are `nsw`, as C's int arithmetic is: that keeps LLVM's view of the
/// addresses affine (vectorization, strength reduction). Every other i32 op
/// wraps, as the seed's semantics say.
void ArithFlags::findAddressMath(ArrayRef<Operation *> order) {
  for (Operation *op : llvm::reverse(order)) {
    if (!isa<AddOp, MulOp>(op) || !op->getResult(0).getType().isInteger(32))
      continue;
    bool onlyAddresses = !op->getResult(0).use_empty();
    for (OpOperand &use : op->getResult(0).getUses()) {
      Operation *user = use.getOwner();
      bool isIndex = isa<IndexOp>(user) && use.getOperandNumber() > 0 &&
                     isMemory(user->getOperand(0).getType());
      if (!isIndex && !addressMath.contains(user))
        onlyAddresses = false;
    }
    if (onlyAddresses)
      addressMath.insert(op);
  }
}
