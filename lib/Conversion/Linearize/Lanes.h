//===- Lanes.h - values across uop-linearize's vector lanes -----*- C++ -*-===//
//
// Inside a loop jammed into vector lanes (`#uop.opts<vector = W>`) a
// lane-variant value is a vector<W x T>, a lane-invariant one a scalar.
// These build the values that move between the two shapes.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_CONVERSION_LINEARIZE_LANES_H
#define UOP_LIB_CONVERSION_LINEARIZE_LANES_H

#include "mlir/IR/Builders.h"

namespace mlir::uop {

/// `v` across `width` lanes: a vector as it is, a scalar broadcast.
Value lanesOf(OpBuilder &b, Value v, int64_t width);

/// `v` broadcast across the lanes of `like` if `like` is a vector, else `v`.
Value lanesLike(OpBuilder &b, Value like, Value v);

/// Lane `l` of `v`, or `v` itself if it is a scalar (lane-invariant).
Value laneOf(OpBuilder &b, Location loc, Value v, int64_t l);

/// A constant of `attr`'s value shaped like `like` (a splat if a vector).
Value constLike(OpBuilder &b, Value like, TypedAttr attr);

} // namespace mlir::uop

#endif // UOP_LIB_CONVERSION_LINEARIZE_LANES_H
