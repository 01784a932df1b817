//===- SeedOrderRewrite.h - the seed's graph_rewrite as MLIR rewriting -*- C++ -*-===//
//
// The rewrite driver of uop-symbolic and uop-evaluate: the patterns applied in
// the seed's order (children before parents, each op once, the fixed point
// certified by a second in-order pass that changes nothing, or found by the
// greedy driver), alternated with the seed's hash consing (equal subgraphs
// shared, operands compared in order) until neither changes anything.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_TRANSFORMS_SEEDORDERREWRITE_H
#define UOP_TRANSFORMS_SEEDORDERREWRITE_H

#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>

#include <cstdint>

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::uop {
class BoundsCache;

/// What the seed-order driver did (uop-symbolic reports them as pass
/// statistics: --mlir-pass-statistics).
struct RewriteStats {
  int64_t visits = 0;   ///< ops simplified (an op rewritten is visited again)
  int64_t tries = 0;    ///< patterns tried
  int64_t rewrites = 0; ///< patterns applied
  int64_t folds = 0;    ///< ops folded
  int64_t made = 0;     ///< ops made
  int64_t erased = 0;   ///< ops erased
  void add(const RewriteStats &o) {
    visits += o.visits, tries += o.tries, rewrites += o.rewrites, folds += o.folds;
    made += o.made, erased += o.erased;
  }
};

struct SeedOrderRewriteConfig {
  /// Rewrite in the seed's order first (uop-symbolic). Without it the greedy
  /// driver does the rewriting (uop-evaluate, whose rules inline calls and
  /// unstack values: their order matters less than their number).
  bool seedOrder = true;
  /// With seedOrder, certify the fixed point by a second in-order pass that
  /// must change nothing; without it (or when that pass changes something)
  /// the greedy driver runs after the seed-order pass.
  bool certify = true;
  /// The greedy driver's iteration limit for each of its runs (-1: none, and
  /// no rewrite budget either). Each driver run may also make at most
  /// (maxIterations + 1) * (4 * ops + 64) rewrites, so that a rule that
  /// applies to what it makes stops and is reported.
  int64_t maxIterations = 10;
  /// Rounds of sharing, each followed by rewriting the ops whose operands it
  /// changed (-1: none).
  int64_t maxSharingRounds = 64;
  /// The bounds memo the patterns were given (populateSymbolicPatterns); it
  /// listens to every change. Null: the driver uses one of its own.
  BoundsCache *cache = nullptr;
  /// Where to add what the seed-order driver did, if anywhere.
  RewriteStats *stats = nullptr;
  /// Where to count how often each rule fired, if anywhere: each pattern
  /// under getRuleName(pattern), each folder rule under its
  /// getFoldRuleNames() name (UopFoldRules.h). Off by default: a map update
  /// per rewrite.
  llvm::StringMap<int64_t> *ruleCounts = nullptr;
  /// Names the rewrite in the non-convergence error ("<name> did not
  /// converge ...").
  StringRef name = "seed-order rewrite";
};

/// The name a pattern's fire count is kept under: its debug name (the class
/// name for `RewritePatternSet::add<T>`) without namespaces, e.g.
/// `DivSum<FloorDivOp>`.
std::string getRuleName(const Pattern &pattern);

/// Rewrites the regions of `root` with `patterns` to a fixed point, sharing
/// equal subgraphs as the seed's hash consing does (`x + y` and `y + x` stay
/// two values). Returns failure, with an error on `root`, when a limit of
/// `config` stops it before the fixed point.
LogicalResult applySeedOrderRewrite(Operation *root, const FrozenRewritePatternSet &patterns,
                                    const SeedOrderRewriteConfig &config = {});

} // namespace mlir::uop

#endif // UOP_TRANSFORMS_SEEDORDERREWRITE_H
