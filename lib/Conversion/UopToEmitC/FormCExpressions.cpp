//===- FormCExpressions.cpp - C expressions that -Wall accepts --*- C++ -*-===//
//
// Upstream's form-expressions wraps every C operator op in an
// emitc.expression and folds single-use operands into their user, so that
// `v1[i] = v2 * v3 + v4;` is one line, as the seed writes it. The emitter
// then parenthesizes an operand only where precedence needs it: `a < 0 ^ b
// < 0`, `x == y & z == w` and `p && q || r` are right C, but gcc's and
// clang's -Wparentheses (in -Wall) reject them. Here an operand of such a
// pair is left out of the expressions (the emitter gives it its own
// variable, `bool v5 = a < 0;`), and the rest is upstream's folding.
//
// Expressions are also kept to kMaxExpressionOps operators: a line stays
// readable, the nesting of parentheses stays far below a compiler's limit
// (clang's is 256), and folding, which clones the expressions it joins, stays
// linear in a long chain (a 10^5-op elementwise chain).
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

#include "mlir/Dialect/EmitC/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

/// Whether C compilers warn when `child`, unparenthesized, is an operand of
/// `parent` (both C operators).
static bool wantsParentheses(Operation *parent, Operation *child) {
  bool childIsArith = isa<emitc::AddOp, emitc::SubOp, emitc::MulOp, emitc::DivOp, emitc::RemOp>(child);
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
  Operation *user = *result.getUsers().begin();
  return isa<emitc::CExpressionInterface>(user) && wantsParentheses(user, op);
}

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
  emitc::populateExpressionPatterns(patterns);
  (void)applyPatternsGreedily(root, std::move(patterns));
}
