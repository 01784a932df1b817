//===- UopTeardown.h - free deeply nested IR in linear time -----*- C++ -*-===//
//
// MLIR frees a region by first dropping the references of every op under it
// (Region::~Region, then Block::clear again), at every level: freeing N
// `uop.call`s nested in one another walks N + (N-1) + ... ops, O(N^2) (10 s
// at 10,000 levels). eraseNestedRegions frees the same IR innermost first,
// so each region is empty of nested ops by the time it is freed: O(N).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_IR_UOPTEARDOWN_H
#define UOP_IR_UOPTEARDOWN_H

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::uop {

/// Erases everything in `root`'s regions (not `root` itself, which is left
/// with empty regions), innermost region first, in time linear in the number
/// of ops whatever the nesting depth, and without recursion. Every reference
/// is dropped first, so the IR need not verify (a failed pass may leave uses
/// out of their region).
void eraseNestedRegions(Operation *root);

} // namespace mlir::uop

#endif // UOP_IR_UOPTEARDOWN_H
