//===- UopComposite.h - composite movement ops from primitives --*- C++ -*-===//
//
// The seed's composite.py: PAD and FLIP are not primitives. These builders
// make them (and their helpers) out of reshape, expand, permute, shrink,
// stack, mul and reduce only, exactly as the seed does, so rangeify and the
// symbolic rules turn them back into tight code (a PAD becomes a
// bounds-checked where). Used by tests now and by the Tensor frontend later.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_IR_UOPCOMPOSITE_H
#define UOP_IR_UOPCOMPOSITE_H

#include "mlir/IR/Builders.h"

#include <utility>

namespace mlir::uop {

/// A zero of x's dtype broadcast to x's shape.
Value zerosLike(OpBuilder &b, Location loc, Value x);

/// Moves axis `src` of x to position `dst` (a permute, or x itself).
Value moveAxis(OpBuilder &b, Location loc, Value x, int64_t src, int64_t dst);

/// Concatenates two tensors of one shape along `axis`: stack them, move the
/// new axis next to `axis`, merge the two.
Value concat2(OpBuilder &b, Location loc, Value a, Value c, int64_t axis);

/// Zero-pads one axis by `before` and `after` elements (doubling with zeros
/// and shrinking back).
Value padAxis(OpBuilder &b, Location loc, Value x, int64_t axis, int64_t before, int64_t after);

/// Zero-pads every axis: pads[k] = (before, after) of axis k.
Value pad(OpBuilder &b, Location loc, Value x, ArrayRef<std::pair<int64_t, int64_t>> pads);

/// M[i, j] = (i + j == n - 1) as an (n, n) tensor of `dtype`, from a one-hot
/// vector and the expand/reshape/shrink "diagonal trick".
Value antiEye(OpBuilder &b, Location loc, int64_t n, Type dtype);

/// Reverses one axis: y[i] = sum_j x[j] * [i + j == n - 1].
Value flipAxis(OpBuilder &b, Location loc, Value x, int64_t axis);

/// The reverse of expand: sums g over the axes where `shape` differs from
/// g's shape (where `shape` has 1), keeping `shape`.
Value sumTo(OpBuilder &b, Location loc, Value g, ArrayRef<int64_t> shape);

} // namespace mlir::uop

#endif // UOP_IR_UOPCOMPOSITE_H
