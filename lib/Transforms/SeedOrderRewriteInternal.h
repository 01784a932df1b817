//===- SeedOrderRewriteInternal.h - pieces of the seed-order driver -*- C++ -*-===//
//
// Internal to UopTransforms (and its unit tests): the pieces of
// applySeedOrderRewrite that are tested directly. The op-kind trait cache,
// constant sharing and hoisting, and the seed's hash consing.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_TRANSFORMS_SEEDORDERREWRITEINTERNAL_H
#define UOP_LIB_TRANSFORMS_SEEDORDERREWRITEINTERNAL_H

#include "llvm/ADT/DenseMap.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"

#include <array>

namespace mlir::uop {
class BoundsCache;

/// An op kind's fold hook (OperationName::FoldHookFn's signature).
using FoldFn = LogicalResult (*)(Operation *, ArrayRef<Attribute>, SmallVectorImpl<OpFoldResult> &);

/// Per op kind, what the driver asks of every op it visits. Each hasTrait or
/// interface query walks the op's trait list; a uop op's traits and effects
/// do not depend on the instance (the only ops with effects of their own,
/// loads and stores, always have them), so for the region-free uop ops they
/// are asked once per kind. Other ops are asked each time.
class OpKindTraits {
public:
  /// Whether `op` would be erased by isOpTriviallyDead if it had no uses.
  bool deadIfUnused(Operation *op) { return get(op).deadIfUnused; }
  bool isOpTriviallyDead(Operation *op) { return hasNoUses(op) && deadIfUnused(op); }
  /// op->use_empty(), without the range search for an op of one result.
  static bool hasNoUses(Operation *op) {
    return op->getNumResults() == 1 ? op->getResult(0).use_empty() : op->use_empty();
  }
  bool isConstantLike(Operation *op) { return get(op).constantLike; }
  bool isTerminator(Operation *op) { return get(op).terminator; }
  /// op->hasTrait<OpTrait::IsCommutative>() (ODS's `Commutative`).
  bool isCommutative(Operation *op) { return get(op).commutative; }
  /// mlir::isMemoryEffectFree(op).
  bool isMemoryEffectFree(Operation *op) { return get(op).effectFree; }
  /// For a commutative uop op, its fold hook with the Commutative trait's
  /// fold (a constant lhs moved to the right, in place) done without the
  /// std::stable_partition of OpTrait::impl::foldCommutative, which
  /// allocates on every call; the same results. Null for other ops (fold
  /// them with Operation::fold).
  FoldFn commutativeFolder(Operation *op) { return get(op).fold; }

private:
  struct Info {
    bool deadIfUnused, constantLike, terminator, commutative, effectFree;
    FoldFn fold;
  };
  struct Slot {
    const void *name = nullptr;
    Info info{};
  };
  static Info compute(Operation *op);
  /// compute() for an op with regions, its body's effects from get() of the
  /// ops in it (each body asked once, innermost first).
  Info computeWithRegions(Operation *op);
  /// Computes `op`'s info, and keeps it in `slot` when it holds for its kind.
  Info fill(Operation *op, Slot &slot);
  /// A direct-mapped cache by op name: a collision only asks again.
  Info get(Operation *op) {
    const void *name = op->getName().getAsOpaquePointer();
    // An op with regions (uop.call: RecursiveMemoryEffects) is asked about
    // its whole body: asked on every visit, a nest of calls costs its depth
    // squared (10,000 levels through uop-symbolic took minutes). Kept per op
    // for this driver's run: the rules change values, not which ops have
    // effects, and the op's name guards a reused address.
    if (op->getNumRegions()) {
      auto [it, fresh] = regionOps.try_emplace(op, Slot{name, Info{}});
      if (!fresh && it->second.name == name)
        return it->second.info;
      Info info = computeWithRegions(op);
      regionOps[op] = {name, info};
      return info;
    }
    Slot &slot = slots[(reinterpret_cast<uintptr_t>(name) * 0x9E3779B97F4A7C15ull) >> 58];
    if (slot.name == name)
      return slot.info;
    return fill(op, slot);
  }
  std::array<Slot, 64> slots;
  llvm::DenseMap<Operation *, Slot> regionOps;
};

/// Shares the equal constants (`uop.const` of the same attribute: `1`,
/// `1.0`, `true`, `0.0` and `-0.0` are five) of each block, keeping the
/// first. Before the driver starts, so that its worklist keeps program order
/// (the greedy driver shares them as it fills its worklist, and queues the
/// users of each, the last user first). With `cache`, the constants kept are
/// also moved to the start of their block, in program order, and remembered
/// in `cache->constants`: the rules then reuse them (a constant there
/// dominates every op of the block) instead of making their own. Returns how
/// many ops there were (constants replaced included), counted in the same
/// walk.
int64_t shareConstants(Operation *root, RewriterBase &rewriter, BoundsCache *cache = nullptr);

/// What the greedy driver's worklist set-up (its OperationFolder's
/// insertKnownConstant, top-down) does to IR that is already at a fixed point
/// of the patterns: constants in program order, each moved to the front of
/// its block (location unknown) unless it is there or right after a constant
/// already seen. Done here, and returns true, when the driver would do only
/// that: every constant in the single entry block of a region of an op
/// isolated from above (where the folder puts them), no two equal (the
/// driver would merge those). Otherwise changes nothing and returns false.
bool hoistConstantsAsGreedy(Operation *root);

/// A hash of what makes two ops one value for the sharing (name, attributes,
/// properties, result types, operands in order).
uint64_t hashForSharing(Operation *op);

/// Whether `a` and `b` are one value for the sharing: OperationEquivalence
/// with locations ignored and operands compared in order, commutative ops
/// included (the seed hash-conses `x + y` and `y + x` as two nodes).
bool equivalentForSharing(Operation *a, Operation *b);

/// The seed's hash consing after a rewrite, for a module of functions of
/// pure flat ops (or one such function): eliminateCommonSubExpressions(root)
/// with the operands of commutative ops compared in order
/// (equivalentForSharing) and a faster table. Other IR goes to
/// eliminateCommonSubExpressions itself, which merges `x + y` with `y + x`.
/// Trivially dead ops are erased. Returns whether anything changed.
bool shareSubgraphs(Operation *root, RewriterBase &rewriter);

} // namespace mlir::uop

#endif // UOP_LIB_TRANSFORMS_SEEDORDERREWRITEINTERNAL_H
