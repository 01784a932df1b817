//===- Schedule.h - uop-linearize's list scheduler --------------*- C++ -*-===//
//
// The first half of the seed's `linearize` (uopc/linearize.py): a kernel
// DAG rooted at a `uop.sink` as one list, in which a `uop.range` opens a
// loop and a `uop.end` closes the innermost ones, each op placed in the
// loops it sits in.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_CONVERSION_LINEARIZE_SCHEDULE_H
#define UOP_LIB_CONVERSION_LINEARIZE_SCHEDULE_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <map>
#include <queue>

namespace mlir::uop {

/// A port of the seed's list scheduler, step for step (same toposort, same
/// scopes, same tie breaks), so that a program lowers to the loop nest the
/// seed would render.
class Scheduler {
public:
  /// The loops an op sits in, outermost first: sorted by (idx, kind, topo
  /// order).
  using Scope = SmallVector<Operation *, 4>;

  /// A scheduler of the graph that `root` (the `uop.sink`) reaches.
  explicit Scheduler(Operation *root) : root(root) {}

  /// Computes the linear order; returns failure after a diagnostic.
  LogicalResult run();

  /// The scheduled ops, RANGE opening and END closing loops.
  ArrayRef<Operation *> getOrder() const { return out; }
  /// The loops (RANGE ops) an op sits in when it runs, outermost first; for
  /// a RANGE, the loops around it.
  ArrayRef<Operation *> getLoops(Operation *op) const;

private:
  /// Fills `topo` and `srcs`: the seed's iterative toposort from `root`.
  void toposort();
  /// The order of ranges (and ops, which sort after every range) in a scope.
  bool rangeLess(Operation *a, Operation *b) const;
  /// `set` sorted by rangeLess.
  Scope sorted(const llvm::SmallPtrSetImpl<Operation *> &set) const;
  /// `set` with the loops enclosing its ranges, sorted.
  Scope close(const llvm::SmallPtrSetImpl<Operation *> &set);
  /// Appends `op` to the order and readies the users it was the last
  /// source of.
  void emit(Operation *op);
  /// Puts `op`, whose sources are all emitted, where the loop looks for it.
  void makeReady(Operation *op);

  /// The graph's root (the `uop.sink`).
  Operation *root;
  /// Children before parents, in the seed's iterative toposort order.
  SmallVector<Operation *> topo;
  /// Each op's position in `topo`.
  DenseMap<Operation *, unsigned> order;
  /// Defining ops of each op's operands, in operand order (duplicates kept).
  DenseMap<Operation *, SmallVector<Operation *, 4>> srcs;
  /// The ops that read each op (each once).
  DenseMap<Operation *, SmallVector<Operation *, 4>> users;
  /// The ranges each op depends on and no END has closed.
  DenseMap<Operation *, llvm::SmallPtrSet<Operation *, 4>> scope;
  /// The ranges enclosing each range.
  DenseMap<Operation *, llvm::SmallPtrSet<Operation *, 4>> enclosing;
  /// The loops each op is scheduled in.
  DenseMap<Operation *, Scope> target;

  /// How many of each op's distinct sources are not emitted yet.
  DenseMap<Operation *, unsigned> waiting;
  /// Ready RANGE and END ops.
  llvm::SmallPtrSet<Operation *, 16> ready;
  /// A min-heap of ready ops by topo order.
  using Heap = std::priority_queue<std::pair<unsigned, Operation *>,
                                   std::vector<std::pair<unsigned, Operation *>>, std::greater<>>;
  /// Every other ready op, bucketed by target scope.
  std::map<Scope, Heap> heaps;
  /// The ops not emitted yet. Not a SetVector: its remove is linear, which
  /// made scheduling quadratic (nothing here depends on the set's order).
  llvm::DenseSet<Operation *> pending;
  /// The open loops.
  SmallVector<Operation *> stack;
  /// The order.
  SmallVector<Operation *> out;
};

} // namespace mlir::uop

#endif // UOP_LIB_CONVERSION_LINEARIZE_SCHEDULE_H
