//===- Autodiff.h - reverse-mode autodiff of shaped uop graphs --*- C++ -*-===//
//
// The seed's uopc/autodiff.py: given the graph of `root` and some target
// values, build the graph of d(root)/d(target) out of the same primitive ops.
// It works on pure shaped (L1) graphs only, before rangeify: no store, call,
// after, range or end.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_TRANSFORMS_AUTODIFF_H
#define UOP_TRANSFORMS_AUTODIFF_H

#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"

namespace mlir::uop {

/// The gradients of `root` with respect to each of `targets`, built with `b`
/// at its insertion point (which must be after every op of root's graph,
/// e.g. before the return), as the seed's `gradient(root, targets)`:
///
/// * the seed of the backward pass is ones like `root` (any shape);
/// * only values on a path from a target to root are visited, in the reverse
///   of the seed's toposort (depth first from root, operands in order), so
///   contributions are added in the seed's order and float sums are the
///   seed's bit for bit;
/// * a target root does not depend on gets zeros like it.
///
/// The rules are the seed's (`_rule`): add, mul, max (ties split in half),
/// recip, exp2, log2, sqrt, sin (its cos as 1 - 2 sin^2(x/2), exact at large
/// x, where the seed's sin(x + pi/2) is not), cast (none to a non-float
/// source), where,
/// comparisons and floordiv/floormod (none), reshape, expand (sum_to),
/// permute (the inverse), shrink (pad), stack, stage (detach stops, others
/// pass), reduce add and max (the mask of the maxima over their count), index
/// with constant indices (a stack of zeros around g); const, buffer, param
/// and block arguments are leaves.
///
/// New ops are built plainly with `b` (no sharing): a caller that wants the
/// seed's hash consing shares them afterwards (uop-gradient hash-conses its
/// function; the Tensor frontend conses the new ops as it does all of its
/// ops). Building first and sharing after gives the same graph as the seed's
/// build-time consing: the rules only look up forward values. On a value
/// that needs a rule the seed does not have, or a data-dependent uop.index,
/// emits an error at that op and returns failure (the ops built so far are
/// left for the caller to erase or ignore: they are unused).
FailureOr<SmallVector<Value>> gradient(OpBuilder &b, Value root, ArrayRef<Value> targets);

/// The seed's toposort of `root`'s graph: every value it depends on, operands
/// before users, depth first from root with operands in order (iterative).
SmallVector<Value> seedToposort(Value root);

} // namespace mlir::uop

#endif // UOP_TRANSFORMS_AUTODIFF_H
