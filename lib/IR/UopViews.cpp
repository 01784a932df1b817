//===- UopViews.cpp - index arithmetic of movement ops -----------*- C++ -*-===//

#include "Uop/IR/UopViews.h"

#include "Uop/IR/UopOps.h"

using namespace mlir;
using namespace mlir::uop;

SmallVector<int64_t> mlir::uop::getMovementSourceIndex(Operation *op, ArrayRef<int64_t> idx) {
  ArrayRef<int64_t> in = getShape(op->getOperand(0).getType());
  ArrayRef<int64_t> out = getShape(op->getResult(0).getType());
  SmallVector<int64_t> next(in.size(), 0);
  if (isa<ReshapeOp>(op)) {
    int64_t linear = 0;
    for (auto [i, d] : llvm::zip(idx, out))
      linear = linear * d + i;
    for (int64_t k = (int64_t)in.size() - 1; k >= 0; --k) {
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
  return next;
}
