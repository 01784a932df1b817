//===- Symbolic.cpp - the uop-symbolic pass --------------------*- C++ -*-===//
//
// Folding plus the seed's symbolic rules, applied in program order as the
// seed's graph_rewrite does (children before parents; a second in-order pass
// that changes nothing certifies the fixed point, else the greedy driver
// finds it or reports non-convergence), with CSE as hash consing, and bounds
// memoized over the whole rewrite: applySeedOrderRewrite.
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopBounds.h"
#include "Uop/IR/UopFoldRules.h"
#include "Uop/Transforms/Passes.h"
#include "Uop/Transforms/SeedOrderRewrite.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPSYMBOLICPASS
#include "Uop/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;

LogicalResult uop::applySymbolic(Operation *root, int64_t maxIterations, RewriteStats *stats,
                                 llvm::StringMap<int64_t> *ruleCounts) {
  RewritePatternSet patterns(root->getContext());
  uop::BoundsCache cache;
  uop::populateSymbolicPatterns(patterns, &cache);
  FrozenRewritePatternSet frozen(std::move(patterns));
  uop::SeedOrderRewriteConfig config;
  config.maxIterations = maxIterations;
  config.cache = &cache;
  config.stats = stats;
  config.ruleCounts = ruleCounts;
  config.name = "uop-symbolic";
  // Non-convergence is an error on the op (applySeedOrderRewrite's).
  return uop::applySeedOrderRewrite(root, frozen, config);
}

SmallVector<std::string> uop::getSymbolicRuleNames(MLIRContext *context) {
  RewritePatternSet patterns(context);
  uop::populateSymbolicPatterns(patterns);
  SmallVector<std::string> names;
  for (const std::unique_ptr<RewritePattern> &pattern : patterns.getNativePatterns()) {
    std::string name = uop::getRuleName(*pattern);
    if (!llvm::is_contained(names, name))
      names.push_back(name);
  }
  for (StringRef rule : uop::getFoldRuleNames())
    names.push_back(rule.str());
  return names;
}

namespace {
struct UopSymbolicPass : uop::impl::UopSymbolicPassBase<UopSymbolicPass> {
  using Base::Base;
  void runOnOperation() override {
    uop::RewriteStats stats;
    if (failed(uop::applySymbolic(getOperation(), maxIterations, &stats)))
      signalPassFailure();
    numVisits += stats.visits;
    numTries += stats.tries;
    numRewrites += stats.rewrites;
    numFolds += stats.folds;
    numMade += stats.made;
    numErased += stats.erased;
  }
};
} // namespace
