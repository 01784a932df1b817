//===- RuntimeChecks.h - uop-linearize's run-time checks --------*- C++ -*-===//
//
// What uop-linearize checks at run time (`checks=true`): indices out of
// their memory's bounds and divisors of 0 (or INT_MIN / -1) that the bounds
// analysis does not rule out. A failing check writes the kernel's check
// record (its last argument: a count, the first failure's id, value and
// bound) and makes the access or division harmless; the kernel's
// `uop.checks` attribute says what each id is.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_CONVERSION_LINEARIZE_RUNTIMECHECKS_H
#define UOP_LIB_CONVERSION_LINEARIZE_RUNTIMECHECKS_H

#include "Uop/IR/UopOps.h"

#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::uop {

/// The run-time checks of one kernel: the record they write, the list of
/// checks by id, and the code of each check, built with the emitter's
/// builder at its insertion point. Inside vector lanes the checked values
/// may be vectors: a check then fails when any lane does.
class RuntimeChecks {
public:
  /// The checks of a kernel emitted with `b`, where `solver` holds the
  /// bounds analysis of the uop graph; none are emitted unless `enabled`.
  RuntimeChecks(OpBuilder &b, DataFlowSolver &solver, bool enabled)
      : b(b), solver(solver), enabled(enabled) {}

  /// Whether checks are emitted at all.
  bool isEnabled() const { return enabled; }

  /// The kernel's check record, if it has one.
  Value getRecord() const { return record; }

  /// The bounds analysis's signed range of the i32 (or i1) uop value `v`,
  /// if it has one: what needs no check, and what the division fast path
  /// relies on.
  std::optional<std::pair<int64_t, int64_t>> rangeOf(Value v) const;

  /// Adds the check record argument to the kernel's new `entry` block
  /// (when checks are enabled).
  void addRecord(Block *entry, Location loc);

  /// Emits check `kind` at `loc`, failing when `bad` (i1) holds, with
  /// `value` and `bound` (i32): the first failure writes the kernel's check
  /// record. Inside vector lanes `bad`, `value` and `bound` may be vectors:
  /// the check fails when any lane does, and the record names the first
  /// failing lane's value and bound. Returns the scalar "failed" (i1).
  Value emitCheck(Location loc, StringRef kind, Value bad, Value value, Value bound);

  /// A divisor made safe for the floordiv or floormod `op` of `x` by `y`
  /// (its lowered operands): checks `y` against 0 (and `x` / `y` against
  /// INT_MIN / -1) unless proven, and returns 1 where a check fails (in
  /// each failing lane of a vector divisor).
  Value checkDivisor(Operation *op, Value x, Value y);

  /// Checks the index `i` (i32, a vector of lane indices inside the lanes)
  /// of the access `op` against the bounds of its memory as declared,
  /// unless the bounds analysis proves it. A failing access goes to element
  /// 0: where lane 0's index `base` (null if none) moves by `stride` a lane
  /// and all `lanes` lanes from 0 are in bounds, `base` becomes 0 when any
  /// lane fails (one vector access); else each failing lane of `i` becomes
  /// 0 and `base` null (lane by lane).
  void checkIndex(IndexOp op, Value &i, Value &base, int64_t stride, int64_t lanes);

  /// The index `i` (scalar or lanes) of `op` checked against its axis's
  /// size, unless the bounds analysis proves it: a failed check of kind
  /// "axis", and 0 in each failing lane. `i` as it is without checks.
  Value checkAxisIndex(CheckIndexOp op, Value i);

  /// Checks the heap allocation `mem` (a memref.alloc of `bytes` bytes
  /// made for `op`) against a null pointer: the allocator draws from the
  /// memory budget and may refuse. Everything after the check in its block
  /// runs only when the allocation succeeded (finish() moves it under the
  /// check), so nothing touches a null memref. Emitted even without
  /// `checks`: a failed allocation is never left to fault.
  void checkAlloc(Operation *op, Value mem, int64_t bytes);

  /// Ends the kernel `func` whose body is `entry`: the record stays an
  /// argument (appended to `argTypes`) only if something was checked, and
  /// the `uop.checks` attribute lists the checks. A kernel with checks
  /// stops at its first failed one: each serial loop around a check leaves
  /// when the record holds a failure (a while loop that tests it with its
  /// bound), and each parallel iteration starts only without one; loops
  /// with a barrier in them run on (every GPU thread must reach it).
  void finish(func::FuncOp func, Block *entry, SmallVectorImpl<Type> &argTypes);

private:
  OpBuilder &b;
  DataFlowSolver &solver;
  bool enabled;
  /// The kernel's last argument (with checks).
  Value record;
  /// {kind, loc} by id.
  SmallVector<Attribute> checkList;
  /// The `scf.if` of each check emitted.
  SmallVector<Operation *> checkIfs;
  /// The checks of heap allocations: the rest of their block goes under them.
  SmallVector<std::pair<Operation *, Value>> allocChecks;
  /// Wraps what follows each heap allocation's check in `scf.if !failed`.
  void guardAfterAllocs();
  /// Makes each loop around a check stop at the first failure.
  void stopAtFirstFailure(func::FuncOp func);
};

} // namespace mlir::uop

#endif // UOP_LIB_CONVERSION_LINEARIZE_RUNTIMECHECKS_H
