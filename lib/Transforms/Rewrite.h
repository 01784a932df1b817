//===- Rewrite.h - the seed's graph_rewrite as MLIR rewriting ---*- C++ -*-===//
//
// Internal to UopTransforms: greedy rewriting in program order (the seed
// rewrites children before parents) alternated with CSE (the seed's hash
// consing, which the rules rely on when they ask "the same x"), until
// neither changes anything; rounds after the first revisit only what CSE
// changed, so the whole stays linear in the graph.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_TRANSFORMS_REWRITE_H
#define UOP_LIB_TRANSFORMS_REWRITE_H

#include "Uop/IR/UopBounds.h"
#include "Uop/IR/UopOps.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::uop {

/// Forwards to the bounds cache and records the ops that CSE modified (the
/// users of merged values): the next round revisits only those.
struct SharingListener : RewriterBase::ForwardingListener {
  explicit SharingListener(BoundsCache &cache) : ForwardingListener(&cache) {}
  void notifyOperationModified(Operation *op) override {
    touched.insert(op);
    ForwardingListener::notifyOperationModified(op);
  }
  void notifyOperationErased(Operation *op) override {
    touched.remove(op);
    ForwardingListener::notifyOperationErased(op);
  }
  llvm::SetVector<Operation *> touched;
};

/// Shares the equal constants of each block, keeping the first (the seed's
/// constants are hash consed from the start). The greedy driver would share
/// them too, as it fills its worklist; but replacing a constant there queues
/// its users at once, in use-list order (the last user first), so that a
/// parent is visited before its children and the rules rewrite sums whose
/// terms are not simplified yet, only to redo it when the children change.
/// Shared before the driver starts, the worklist keeps program order.
inline void shareConstants(Operation *root, RewriterBase &rewriter) {
  llvm::DenseMap<std::pair<Block *, Attribute>, Operation *> first;
  root->walk([&](ConstOp c) {
    auto [it, inserted] = first.try_emplace({c->getBlock(), c.getValue()}, c);
    if (!inserted)
      rewriter.replaceOp(c, it->second->getResults());
  });
}

/// Rewrites `op` with `patterns` to a fixed point, sharing equal subgraphs:
/// one greedy rewrite of everything, then CSE; while CSE merges values, the
/// ops whose operands it changed (and what their rewrites touch) are
/// rewritten again, then CSE runs again. Bounds are memoized in `cache` (the
/// drivers' listener).
inline LogicalResult rewriteWithSharing(Operation *op, const FrozenRewritePatternSet &patterns,
                                        BoundsCache &cache, int64_t maxIterations) {
  // The driver erases ops as they die, so the region simplification sweep
  // (dead code, block merging) after each iteration is not needed.
  GreedyRewriteConfig config;
  config.setUseTopDownTraversal(true)
      .setMaxIterations(maxIterations)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
      .setListener(&cache);
  {
    IRRewriter rewriter(op->getContext(), &cache);
    shareConstants(op, rewriter);
  }
  if (failed(applyPatternsGreedily(op, patterns, config)))
    return failure();
  SharingListener listener(cache);
  for (int round = 0; round < 64; ++round) {
    listener.touched.clear();
    IRRewriter rewriter(op->getContext(), &listener);
    DominanceInfo domInfo(op);
    bool shared = false;
    eliminateCommonSubExpressions(rewriter, domInfo, op, &shared);
    if (!shared || listener.touched.empty())
      break;
    SmallVector<Operation *> ops(listener.touched.begin(), listener.touched.end());
    bool changed = false;
    if (failed(applyOpPatternsGreedily(ops, patterns, config, &changed)))
      return failure();
    if (!changed)
      break;
  }
  return success();
}

} // namespace mlir::uop

#endif // UOP_LIB_TRANSFORMS_REWRITE_H
