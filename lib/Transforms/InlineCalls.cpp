//===- InlineCalls.cpp - the uop-inline-calls pass -------------*- C++ -*-===//
//
// The seed's `inline_call` as region inlining: the body's block is moved in
// front of the call with its arguments replaced by the call's operands.
// Nested calls are moved out whole, so their own parameters (their own block
// arguments) are never touched: scopes are SSA scopes.
//
//===----------------------------------------------------------------------===//

#include "Uop/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPINLINECALLSPASS
#include "Uop/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

Value mlir::uop::inlineCall(RewriterBase &rewriter, CallOp call) {
  Block &body = call.getBody().front();
  YieldOp yield = call.getYield();
  rewriter.inlineBlockBefore(&body, call, call.getArgs());
  // Read the result only now: a body that yields a parameter yields the
  // argument that replaced it.
  Value result = yield.getValue();
  rewriter.eraseOp(yield);
  rewriter.replaceOp(call, result);
  return result;
}

namespace {
/// call(body, args) -> body[params := args]
struct InlineCall : OpRewritePattern<CallOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CallOp op, PatternRewriter &rewriter) const override {
    inlineCall(rewriter, op);
    return success();
  }
};

struct UopInlineCallsPass : uop::impl::UopInlineCallsPassBase<UopInlineCallsPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateInlineCallsPatterns(patterns);
    // Inlining only: no folding, no dead-code removal beyond the calls.
    GreedyRewriteConfig config;
    config.enableFolding(false)
        .enableConstantCSE(false)
        .setUseTopDownTraversal(true)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace

void mlir::uop::populateInlineCallsPatterns(RewritePatternSet &patterns) {
  patterns.add<InlineCall>(patterns.getContext());
}
