//===- InlineCalls.cpp - the uop-inline-calls pass -------------*- C++ -*-===//
//
// The seed's `inline_call` as region inlining: the body's block is moved in
// front of the call with its arguments replaced by the call's operands.
// Nested calls are moved out whole, so their own parameters (their own block
// arguments) are never touched: scopes are SSA scopes.
//
// inlineAllCalls is one sweep, outermost call first: a call's body lands in
// the block being swept and is swept in turn, so each op is moved once and
// nothing walks up or down the nesting. Linear in the ops however deep the
// calls nest (the greedy driver walks each op's ancestors: O(depth) per op,
// 13 s for 10,000 nested calls).
//
//===----------------------------------------------------------------------===//

#include "Uop/Transforms/Passes.h"

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

void mlir::uop::inlineAllCalls(Operation *root) {
  IRRewriter rewriter(root->getContext());
  SmallVector<Block *> blocks;
  for (Region &region : root->getRegions())
    for (Block &block : region)
      blocks.push_back(&block);
  while (!blocks.empty()) {
    Block *block = blocks.pop_back_val();
    for (Operation *op = block->empty() ? nullptr : &block->front(); op;) {
      auto call = dyn_cast<CallOp>(op);
      if (!call) {
        for (Region &region : op->getRegions())
          for (Block &nested : region)
            blocks.push_back(&nested);
        op = op->getNextNode();
        continue;
      }
      // The body's ops take the call's place: sweep on from the first of
      // them (the op before the call stays where it is).
      Operation *before = op->getPrevNode();
      inlineCall(rewriter, call);
      op = before ? before->getNextNode() : (block->empty() ? nullptr : &block->front());
    }
  }
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
    // Inlining only: no folding, no dead-code removal beyond the calls.
    inlineAllCalls(getOperation());
  }
};
} // namespace

void mlir::uop::populateInlineCallsPatterns(RewritePatternSet &patterns) {
  patterns.add<InlineCall>(patterns.getContext());
}
