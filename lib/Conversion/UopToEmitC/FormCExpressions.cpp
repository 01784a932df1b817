//===- FormCExpressions.cpp - C expressions that -Wall accepts --*- C++ -*-===//
//
// Upstream's form-expressions wraps every C operator op in an
// emitc.expression (emitc::createExpression, used here) and folds operand
// expressions into their users, so that `v1[i] = v2 * v3 + v4;` is one
// line, as the seed writes it. Three things differ here:
//
// * a value used more than once keeps its variable, as the seed's `alu1`:
//   22's folding copies a pure expression into every user, so softmax's
//   `x - max` would be computed twice (a fold of single-use operands only,
//   below, instead of emitc::populateExpressionPatterns);
// * the emitter parenthesizes an operand only where precedence needs it:
//   `a < 0 ^ b < 0`, `x == y & z == w` and `p && q || r` are right C, but
//   gcc's and clang's -Wparentheses (in -Wall) reject them, so an operand
//   of such a pair is left out of the expressions (its own variable,
//   `bool v5 = a < 0;`);
//
// Expressions are also kept to kMaxExpressionOps operators: a line stays
// readable, the nesting of parentheses stays far below a compiler's limit
// (clang's is 256), and folding, which clones the expressions it joins, stays
// linear in a long chain (a 10^5-op elementwise chain).
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

#include "mlir/Dialect/EmitC/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

/// Whether C compilers warn when `child`, unparenthesized, is an operand of
/// `parent` (both C operators).
static bool wantsParentheses(Operation *parent, Operation *child) {
  bool childIsArith =
      isa<emitc::AddOp, emitc::SubOp, emitc::MulOp, emitc::DivOp, emitc::RemOp>(child);
  bool childIsCmp = isa<emitc::CmpOp>(child);
  bool childIsShift = isa<emitc::BitwiseLeftShiftOp, emitc::BitwiseRightShiftOp>(child);
  bool childIsLogical = isa<emitc::LogicalAndOp, emitc::LogicalOrOp>(child);
  if (isa<emitc::BitwiseAndOp, emitc::BitwiseOrOp, emitc::BitwiseXorOp>(parent)) {
    bool sameKind = parent->getName() == child->getName();
    bool childIsBitwise = isa<emitc::BitwiseAndOp, emitc::BitwiseOrOp, emitc::BitwiseXorOp>(child);
    return childIsArith || childIsCmp || childIsShift || childIsLogical ||
           (childIsBitwise && !sameKind);
  }
  if (isa<emitc::LogicalOrOp>(parent))
    return isa<emitc::LogicalAndOp>(child);
  if (isa<emitc::CmpOp>(parent))
    return childIsCmp || isa<emitc::LogicalNotOp>(child);
  if (isa<emitc::BitwiseLeftShiftOp, emitc::BitwiseRightShiftOp>(parent))
    return childIsArith;
  return false;
}

/// The most C operators one expression holds.
static constexpr int64_t kMaxExpressionOps = 12;

/// Whether `op` must not join its user's expression.
static bool keepsOwnVariable(Operation *op) {
  Value result = op->getResult(0);
  if (!result.hasOneUse())
    return false; // never folded anyway
  OpOperand &use = *result.getUses().begin();
  Operation *user = use.getOwner();
  // `a | b ? x : y` (clang: -Wbitwise-conditional-parentheses).
  if (auto cond = dyn_cast<emitc::ConditionalOp>(user);
      cond && use.getOperandNumber() == 0 && !isa<emitc::CmpOp, emitc::LoadOp>(op))
    return true;
  return isa<emitc::CExpressionInterface>(user) && wantsParentheses(user, op);
}

namespace {

/// Folds an operand expression that has no other use and no side effect
/// into the expression that uses it (upstream's FoldExpressionOp as it was
/// before it copied multi-use expressions into every user).
struct FoldSingleUseOperand : OpRewritePattern<emitc::ExpressionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(emitc::ExpressionOp expr,
                                PatternRewriter &rewriter) const override {
    Block *body = expr.getBody();
    emitc::ExpressionOp used;
    llvm::SetVector<Value> operands;
    for (auto [operand, arg] : llvm::zip(expr.getOperands(), body->getArguments())) {
      // One use outside and inside: an expression is a tree, and a value
      // it used twice would be computed twice.
      auto e = operand.getDefiningOp<emitc::ExpressionOp>();
      if (used || !e || !e.getResult().hasOneUse() || !arg.hasOneUse() || e.hasSideEffects())
        operands.insert(operand);
      else
        used = e;
    }
    if (!used)
      return rewriter.notifyMatchFailure(expr, "no single-use operand expression");
    for (Value operand : used.getOperands())
      operands.insert(operand);
    rewriter.setInsertionPointAfter(expr);
    auto folded = emitc::ExpressionOp::create(rewriter, expr.getLoc(), expr.getResult().getType(),
                                              operands.getArrayRef(), expr.getDoNotInline());
    Block &foldedBody = folded.createBody();
    IRMapping mapping;
    for (auto [operand, arg] : llvm::zip(folded.getOperands(), foldedBody.getArguments()))
      mapping.map(operand, arg);
    rewriter.setInsertionPointToStart(&foldedBody);
    // The used expression's ops, its result mapped to its root's clone,
    // then the user's.
    auto clone = [&](emitc::ExpressionOp e, bool terminator) {
      for (auto [operand, arg] : llvm::zip(e.getOperands(), e.getBody()->getArguments()))
        mapping.map(arg, mapping.lookup(operand));
      for (Operation &op : e.getBody()->without_terminator())
        rewriter.clone(op, mapping);
      if (terminator)
        rewriter.clone(*e.getBody()->getTerminator(), mapping);
    };
    clone(used, false);
    mapping.map(used.getResult(), mapping.lookup(used.getRootOp()->getResult(0)));
    clone(expr, true);
    rewriter.replaceOp(expr, folded);
    rewriter.eraseOp(used);
    return success();
  }
};

} // namespace

void mlir::uop::formCExpressions(Operation *root) {
  MLIRContext *ctx = root->getContext();
  OpBuilder builder(ctx);
  // The operators each op's expression would hold (defs come first in a
  // block): itself and its single-use operands' (0 for an op that is its
  // own variable). An op whose expression would grow past the bound is
  // its own variable.
  DenseMap<Operation *, int64_t> size;
  auto candidate = [](Operation *op) {
    return op->getNumResults() == 1 && !isa<emitc::LiteralOp>(op) &&
           isa<emitc::CExpressionInterface>(op) && !op->getParentOfType<emitc::ExpressionOp>();
  };
  SmallVector<Operation *> wrap;
  root->walk([&](Operation *op) {
    if (!candidate(op) || keepsOwnVariable(op))
      return;
    int64_t n = 1;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp(); def && v.hasOneUse())
        n += size.lookup(def);
    if (n > kMaxExpressionOps)
      return;
    size[op] = n;
    wrap.push_back(op);
  });
  for (Operation *op : wrap)
    emitc::createExpression(op, builder);
  RewritePatternSet patterns(ctx);
  patterns.add<FoldSingleUseOperand>(ctx);
  (void)applyPatternsGreedily(root, std::move(patterns));
}
