//===- Rewrite.h - the seed's graph_rewrite as MLIR rewriting ---*- C++ -*-===//
//
// Internal to UopTransforms: greedy rewriting in program order (the seed
// rewrites children before parents) alternated with CSE (the seed's hash
// consing, which the rules rely on when they ask "the same x"), until
// neither changes anything.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_TRANSFORMS_REWRITE_H
#define UOP_LIB_TRANSFORMS_REWRITE_H

#include "Uop/IR/UopBounds.h"

#include "mlir/IR/Dominance.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::uop {

/// Rewrites `op` with `patterns` to a fixed point, sharing equal subgraphs
/// between rounds. Bounds are memoized in `cache` (the driver's listener).
inline LogicalResult rewriteWithSharing(Operation *op, const FrozenRewritePatternSet &patterns,
                                        BoundsCache &cache, int64_t maxIterations) {
  GreedyRewriteConfig config;
  // The driver erases ops as they die, so the region simplification sweep
  // (dead code, block merging) after each iteration is not needed.
  config.setUseTopDownTraversal(true)
      .setMaxIterations(maxIterations)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
      .setListener(&cache);
  for (int round = 0; round < 8; ++round) {
    bool changed = false;
    if (failed(applyPatternsGreedily(op, patterns, config, &changed)))
      return failure();
    if (round > 0 && !changed)
      return success();
    IRRewriter rewriter(op->getContext(), &cache);
    DominanceInfo domInfo(op);
    bool shared = false;
    eliminateCommonSubExpressions(rewriter, domInfo, op, &shared);
    if (!shared)
      return success();
  }
  return success();
}

} // namespace mlir::uop

#endif // UOP_LIB_TRANSFORMS_REWRITE_H
