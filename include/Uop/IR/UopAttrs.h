//===- UopAttrs.h - uop attributes and enums ---------------------*- C++ -*-===//

#ifndef UOP_IR_UOPATTRS_H
#define UOP_IR_UOPATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "Uop/IR/UopEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Uop/IR/UopAttrs.h.inc"

#include <map>

namespace mlir::uop {
/// A `#uop.opts` while a strategy (uop-hand-opt, uop-search) builds it: the
/// axis maps keyed by axis instead of the attribute's flat pairs.
struct OptsBuilder {
  std::map<int64_t, int64_t> upcast, tile, local, merge;
  int64_t thread = -1, unroll = 1, vector = 1, prefetch = 0, prefetchNext = 0, stages = 0;
  bool gpu = false, stash = false;
  /// The tensor-core instruction (`tc`), null for none.
  MmaAttr tc;

  OptsAttr get(MLIRContext *ctx) const;
  static OptsBuilder from(OptsAttr attr);
  /// The upcast factor of `axis` (1 when it has none).
  int64_t upcastOf(int64_t axis) const {
    auto it = upcast.find(axis);
    return it == upcast.end() ? 1 : it->second;
  }
};
} // namespace mlir::uop

#endif // UOP_IR_UOPATTRS_H
