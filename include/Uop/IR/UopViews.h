//===- UopViews.h - index arithmetic of movement ops ------------*- C++ -*-===//
//
// The seed's view arithmetic on points: where an index of a movement op's
// result (reshape, expand, permute, shrink) reads its source. uop-layout's
// stride probe, uop-match-gemm's operand strides and the merge of reduced
// axes all walk views with it.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_IR_UOPVIEWS_H
#define UOP_IR_UOPVIEWS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::uop {

/// The index of `movement`'s source that its result reads at `idx`.
SmallVector<int64_t> getMovementSourceIndex(Operation *movement, ArrayRef<int64_t> idx);

} // namespace mlir::uop

#endif // UOP_IR_UOPVIEWS_H
