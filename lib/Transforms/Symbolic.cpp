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
#include "Uop/Transforms/Passes.h"
#include "Uop/Transforms/SeedOrderRewrite.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPSYMBOLICPASS
#include "Uop/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;

namespace {
struct UopSymbolicPass : uop::impl::UopSymbolicPassBase<UopSymbolicPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    uop::BoundsCache cache;
    uop::populateSymbolicPatterns(patterns, &cache);
    FrozenRewritePatternSet frozen(std::move(patterns));
    uop::RewriteStats stats;
    uop::SeedOrderRewriteConfig config;
    config.maxIterations = maxIterations;
    config.cache = &cache;
    config.stats = &stats;
    config.name = "uop-symbolic";
    // Non-convergence is an error on the op (applySeedOrderRewrite's).
    if (failed(uop::applySeedOrderRewrite(getOperation(), frozen, config)))
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
