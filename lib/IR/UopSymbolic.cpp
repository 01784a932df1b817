//===- UopSymbolic.cpp - the seed's symbolic rules as patterns -*- C++ -*-===//
//
// One pattern per rule of the seed's `symbolic` list that builds new ops, in
// the seed's order (the pattern applicator keeps insertion order among equal
// benefits, and the seed takes the first rule that matches). Commutative
// operands are tried in both orders, as the seed's list patterns are.
// Integer rules only: floats are never reassociated.
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopSymbolic.h"
#include "Uop/IR/UopBounds.h"
#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopSemantics.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Whether `v` is i32 or a tensor of i32.
bool isI32(Value v) { return getIntegerWidth(getDType(v.getType())) == 32; }

/// The value of an integer constant (scalar or splat). Constants are
/// `uop.const` (the dialect's materializer makes them), looked at directly:
/// m_Constant would fold the op on every query.
std::optional<int64_t> constInt(Value v) {
  auto c = v.getDefiningOp<ConstOp>();
  if (!c)
    return std::nullopt;
  // The stored attribute as it is: getValue() casts it to TypedAttr again
  // (an interface lookup).
  Attribute value = c.getProperties().value;
  if (auto integer = dyn_cast<IntegerAttr>(value))
    return getElement(integer, 0).i;
  std::optional<Scalar> s = getSplatValue(value);
  if (!s || s->isFloat)
    return std::nullopt;
  return s->i;
}

/// Whether `v` is a constant: a `uop.const`, or a constant-like op of another
/// dialect (a uop op other than `uop.const` never is; asking its traits, as
/// m_Constant does, is a lookup per trait).
bool isConst(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<ConstOp>(def))
    return true;
  return !isa<UopDialect>(def->getDialect()) && matchPattern(v, m_Constant());
}

/// An integer constant of `type` (a dtype, or a splat tensor of it). With a
/// cache, the constant is made once per block, at the start of the block
/// (where it dominates every op of the block), and reused: the rules ask for
/// the same few constants over and over, and each new one would be one more
/// op for the driver to visit and deduplicate.
Value constLike(PatternRewriter &rewriter, BoundsCache *cache, Location loc, Type type, int64_t v) {
  Block *block = rewriter.getInsertionBlock();
  if (!cache || !block)
    return createOp<ConstOp>(rewriter, loc, makeAttr(type, {Scalar::integer(v)}));
  if (auto it = cache->intConstants.find({block, type, v}); it != cache->intConstants.end())
    return it->second->getResult(0);
  TypedAttr attr = makeAttr(type, {Scalar::integer(v)});
  Operation *c;
  auto it = cache->constants.find({block, attr});
  if (it != cache->constants.end() && it->second->getBlock() == block) {
    c = it->second;
  } else {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(block);
    c = createOp<ConstOp>(rewriter, loc, attr);
    cache->constants[{block, attr}] = c;
  }
  // Under the value the constant holds (BoundsCache::notifyOperationErased
  // finds the entry by it).
  if (std::optional<Scalar> held = getSplatValue(attr); held && !held->isFloat)
    cache->intConstants[{block, type, held->i}] = c;
  return c->getResult(0);
}

/// Whether `v` is an i32 scalar (the type the shortcuts of `build` handle).
bool isScalarI32(Value v) { return getIntegerWidth(v.getType()) == 32; }

/// A value a rule is building: an existing value, or an i32 scalar constant
/// that is made only if something uses it (`k` is set for both a constant
/// that exists and one not made yet).
struct Built {
  Value value;
  std::optional<int64_t> k;
};

/// `v` as a Built (with its value when it is an i32 scalar `uop.const`).
Built known(Value v) {
  if (isScalarI32(v))
    if (auto c = v.getDefiningOp<ConstOp>())
      if (auto integer = dyn_cast<IntegerAttr>(Attribute(c.getProperties().value)))
        return {v, getElement(integer, 0).i};
  return {v, std::nullopt};
}

/// The value of `b`, making its constant (of `type`) if it was not made yet.
Value made(PatternRewriter &rewriter, BoundsCache *cache, Location loc, Type type, const Built &b) {
  return b.value ? b.value : constLike(rewriter, cache, loc, type, *b.k);
}

/// `rewriter.createOrFold<OpTy>(loc, a, b)` of i32 scalars (of `type`),
/// without making an op that would fold away at once: two constants fold here
/// (as the op's folder would, with exec_alu) into a constant that is made only
/// if used, `x * 1`, `x + 0`, `x // 1` give x and `x % 1` gives 0 (the
/// folders' identities), and an op that no folder rule applies to (no
/// constant operand, and for an add no `uop.mul` operand, which `x + x*-1`
/// looks for) is made directly. Anything else goes through createOrFold.
template <typename OpTy>
Built build(PatternRewriter &rewriter, BoundsCache *cache, Location loc, Type type, Built a,
            Built b) {
  constexpr bool isAdd = std::is_same_v<OpTy, AddOp>, isMul = std::is_same_v<OpTy, MulOp>,
                 isDiv = std::is_same_v<OpTy, FloorDivOp>, isMod = std::is_same_v<OpTy, FloorModOp>;
  static_assert(isAdd || isMul || isDiv || isMod, "build handles add, mul, floordiv, floormod");
  if (a.k && b.k) {
    AluKind kind = isAdd   ? AluKind::Add
                   : isMul ? AluKind::Mul
                   : isDiv ? AluKind::FloorDiv
                           : AluKind::FloorMod;
    if (std::optional<Scalar> r =
            execAlu(kind, type, {Scalar::integer(*a.k), Scalar::integer(*b.k)}))
      return {Value(), r->i};
    Value va = made(rewriter, cache, loc, type, a), vb = made(rewriter, cache, loc, type, b);
    return known(rewriter.createOrFold<OpTy>(loc, va, vb));
  }
  if (b.k && !isConst(a.value)) {
    if ((isMul && *b.k == 1) || (isAdd && *b.k == 0) || (isDiv && *b.k == 1))
      return a;
    if (isMod && *b.k == 1)
      return {Value(), 0};
    Value va = a.value, vb = made(rewriter, cache, loc, type, b);
    // x * 0 folds to 0 and x + x*-1 may fold to 0: leave those to the folder.
    if (!(isMul && *b.k == 0) && !(isAdd && va.getDefiningOp<MulOp>()))
      return {createOp<OpTy>(rewriter, loc, type, va, vb), std::nullopt};
    return known(rewriter.createOrFold<OpTy>(loc, va, vb));
  }
  Value va = made(rewriter, cache, loc, type, a), vb = made(rewriter, cache, loc, type, b);
  if (!a.k && !b.k && !isConst(va) && !isConst(vb) &&
      !(isAdd && (va.getDefiningOp<MulOp>() || vb.getDefiningOp<MulOp>())))
    return {createOp<OpTy>(rewriter, loc, type, va, vb), std::nullopt};
  return known(rewriter.createOrFold<OpTy>(loc, va, vb));
}

/// `rewriter.createOrFold<OpTy>(loc, a, b)`, through the Built form above
/// for i32 scalars of one type.
template <typename OpTy>
Value build(PatternRewriter &rewriter, BoundsCache *cache, Location loc, Value a, Value b) {
  if (!isScalarI32(a) || a.getType() != b.getType())
    return rewriter.createOrFold<OpTy>(loc, a, b);
  Type type = a.getType();
  return made(rewriter, cache, loc, type,
              build<OpTy>(rewriter, cache, loc, type, known(a), known(b)));
}

/// `v` is `OpTy(x, c)` with `x` an i32 value and `c` an integer constant,
/// tried as [x, c] then [c, x] (the seed's list patterns of commutative ops).
template <typename OpTy> bool matchXC(Value v, Value &x, int64_t &c) {
  auto op = v.getDefiningOp<OpTy>();
  if (!op)
    return false;
  if (std::optional<int64_t> k = constInt(op.getRhs()); k && isI32(op.getLhs())) {
    x = op.getLhs(), c = *k;
    return true;
  }
  if (std::optional<int64_t> k = constInt(op.getLhs()); k && isI32(op.getRhs())) {
    x = op.getRhs(), c = *k;
    return true;
  }
  return false;
}

/// `v` is `OpTy(x, c)` in this order (the seed's tuple patterns).
template <typename OpTy> bool matchXCOrdered(Value v, Value &x, int64_t &c) {
  auto op = v.getDefiningOp<OpTy>();
  if (!op || !isI32(op.getLhs()))
    return false;
  std::optional<int64_t> k = constInt(op.getRhs());
  if (!k)
    return false;
  x = op.getLhs(), c = *k;
  return true;
}

/// `v` is `(x // c) * c` (the product in either order); returns x and c.
bool matchDivMul(Value v, Value &x, int64_t &c) {
  Value q;
  int64_t k;
  if (!matchXC<MulOp>(v, q, k))
    return false;
  int64_t d;
  if (!matchXCOrdered<FloorDivOp>(q, x, d) || d != k)
    return false;
  c = k;
  return true;
}

/// Tries `fn(a, b)` with the two operands of a commutative op in both orders.
template <typename Fn> bool eitherOrder(Value lhs, Value rhs, Fn fn) {
  return fn(lhs, rhs) || fn(rhs, lhs);
}

/// rewriter.replaceOpWithNewOp<OpTy>(op, lhs, rhs) for a binary op, made
/// with createOp: the result type given (the lhs's for arithmetic, that of
/// the comparison's result for a comparison) rather than inferred.
template <typename OpTy>
void replaceWithNew(PatternRewriter &rewriter, Operation *op, Value lhs, Value rhs) {
  Type type = std::is_same_v<OpTy, CmpLtOp> ? op->getResult(0).getType() : lhs.getType();
  rewriter.replaceOp(op, createOp<OpTy>(rewriter, op->getLoc(), type, lhs, rhs).getResult());
}

/// Base of the rules: a pattern on OpTy that may ask for bounds.
template <typename OpTy> struct SymbolicPattern : OpRewritePattern<OpTy> {
  SymbolicPattern(MLIRContext *context, BoundsCache *cache)
      : OpRewritePattern<OpTy>(context), cache(cache) {}
  IntBounds bounds(Value v) const { return getBounds(v, cache); }
  BoundsCache *cache;
};

//===----------------------------------------------------------------------===//
// add
//===----------------------------------------------------------------------===//

/// x + x -> x * 2 (i32)
struct AddSelf : SymbolicPattern<AddOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(AddOp op, PatternRewriter &rewriter) const override {
    if (!isI32(op.getLhs()) || op.getLhs() != op.getRhs())
      return rewriter.notifyMatchFailure(op, "not x + x of i32");
    Value two = constLike(rewriter, cache, op.getLoc(), op.getType(), 2);
    replaceWithNew<MulOp>(rewriter, op, op.getLhs(), two);
    return success();
  }
};

/// (x + c1) + c2 -> x + (c1 + c2), wrapping (i32 only: float addition is not
/// associative)
struct ReassocAddConst : SymbolicPattern<AddOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(AddOp op, PatternRewriter &rewriter) const override {
    Value x;
    int64_t c1, c2;
    bool ok = eitherOrder(op.getLhs(), op.getRhs(), [&](Value a, Value b) {
      std::optional<int64_t> k = constInt(b);
      if (!k || !matchXC<AddOp>(a, x, c1))
        return false;
      c2 = *k;
      return true;
    });
    if (!ok)
      return rewriter.notifyMatchFailure(op, "not (x + c1) + c2 of i32");
    Value c = constLike(rewriter, cache, op.getLoc(), op.getType(), wrapI32(c1 + c2));
    replaceWithNew<AddOp>(rewriter, op, x, c);
    return success();
  }
};

/// (x + c1) + y -> (x + y) + c1 for a non-constant y: constants move outward
/// so that they can meet and fold
struct HoistConstAdd : SymbolicPattern<AddOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(AddOp op, PatternRewriter &rewriter) const override {
    Value x, y;
    int64_t c1;
    bool ok = eitherOrder(op.getLhs(), op.getRhs(), [&](Value a, Value b) {
      if (isConst(b) || !matchXC<AddOp>(a, x, c1))
        return false;
      y = b;
      return true;
    });
    if (!ok)
      return rewriter.notifyMatchFailure(op, "not (x + c1) + y of i32");
    Value sum = build<AddOp>(rewriter, cache, op.getLoc(), x, y);
    Value c = constLike(rewriter, cache, op.getLoc(), op.getType(), c1);
    replaceWithNew<AddOp>(rewriter, op, sum, c);
    return success();
  }
};

/// x*c1 + x*c2 -> x * (c1 + c2)
struct CombineMulTerms : SymbolicPattern<AddOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(AddOp op, PatternRewriter &rewriter) const override {
    Value x1, x2;
    int64_t c1, c2;
    if (!matchXC<MulOp>(op.getLhs(), x1, c1) || !matchXC<MulOp>(op.getRhs(), x2, c2) || x1 != x2)
      return rewriter.notifyMatchFailure(op, "not x*c1 + x*c2 of i32");
    Value c = constLike(rewriter, cache, op.getLoc(), op.getType(), wrapI32(c1 + c2));
    replaceWithNew<MulOp>(rewriter, op, x1, c);
    return success();
  }
};

/// x*c1 + x -> x * (c1 + 1)
struct CombineMulSelf : SymbolicPattern<AddOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(AddOp op, PatternRewriter &rewriter) const override {
    Value x;
    int64_t c1;
    bool ok = eitherOrder(op.getLhs(), op.getRhs(),
                          [&](Value a, Value b) { return matchXC<MulOp>(a, x, c1) && x == b; });
    if (!ok)
      return rewriter.notifyMatchFailure(op, "not x*c1 + x of i32");
    Value c = constLike(rewriter, cache, op.getLoc(), op.getType(), wrapI32(c1 + 1));
    replaceWithNew<MulOp>(rewriter, op, x, c);
    return success();
  }
};

/// (x // c) * c + x % c -> x
struct Recombine : SymbolicPattern<AddOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(AddOp op, PatternRewriter &rewriter) const override {
    Value x;
    bool ok = eitherOrder(op.getLhs(), op.getRhs(), [&](Value a, Value b) {
      Value x2;
      int64_t c, c2;
      return matchDivMul(a, x, c) && matchXCOrdered<FloorModOp>(b, x2, c2) && x2 == x && c2 == c;
    });
    if (!ok)
      return rewriter.notifyMatchFailure(op, "not (x // c) * c + x % c");
    rewriter.replaceOp(op, x);
    return success();
  }
};

/// `v` is `(x // c) * a` (the product in either order), c != 0.
bool matchDivTimes(Value v, Value &x, int64_t &c, int64_t &a) {
  Value q;
  return matchXC<MulOp>(v, q, a) && matchXCOrdered<FloorDivOp>(q, x, c) && c != 0;
}

/// `v` is `(x % c) * b` (either order) or `x % c` (b = 1), c != 0.
bool matchModTimes(Value v, Value &x, int64_t &c, int64_t &b) {
  Value m;
  if (!matchXC<MulOp>(v, m, b))
    m = v, b = 1;
  return matchXCOrdered<FloorModOp>(m, x, c) && c != 0;
}

/// Whether `(x // c) * a` and `(x % c) * b` of one x add up to `x * b`:
/// a == c * b (x == (x // c) * c + x % c for floor division, so the sum is
/// x * b exactly, wrapping included).
bool scaledPair(Value div, Value mod, Value &x, int64_t &b) {
  Value x1, x2;
  int64_t c1, a, c2;
  if (!matchDivTimes(div, x1, c1, a) || !matchModTimes(mod, x2, c2, b) || x1 != x2 || c1 != c2)
    return false;
  int64_t cb;
  if (llvm::MulOverflow(c1, b, cb) || wrapI32(cb) != wrapI32(a))
    return false;
  x = x1;
  return true;
}

/// (x // c) * (c*b) + (x % c) * b -> x * b: an axis split by a reshape and
/// read back at the strides of the unsplit one (the reduced axes of a weight
/// gradient, batch x context, merged into one) is one affine term again.
/// (b = 1 is Recombine's case, which runs first.)
struct RecombineScaled : SymbolicPattern<AddOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(AddOp op, PatternRewriter &rewriter) const override {
    Value x;
    int64_t b;
    if (!eitherOrder(op.getLhs(), op.getRhs(),
                     [&](Value p, Value q) { return scaledPair(p, q, x, b); }))
      return rewriter.notifyMatchFailure(op, "not (x // c) * (c*b) + (x % c) * b");
    Value c = constLike(rewriter, cache, op.getLoc(), op.getType(), wrapI32(b));
    replaceWithNew<MulOp>(rewriter, op, x, c);
    return success();
  }
};

/// ((x // c) * (c*b) + y) + (x % c) * b -> x * b + y, and the same with the
/// two terms the other way round.
struct RecombineScaledExtra : SymbolicPattern<AddOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(AddOp op, PatternRewriter &rewriter) const override {
    Value x, y;
    int64_t b;
    bool ok = eitherOrder(op.getLhs(), op.getRhs(), [&](Value a, Value last) {
      auto inner = a.getDefiningOp<AddOp>();
      if (!inner)
        return false;
      return eitherOrder(inner.getLhs(), inner.getRhs(), [&](Value p, Value q) {
        if (!scaledPair(p, last, x, b) && !scaledPair(last, p, x, b))
          return false;
        y = q;
        return true;
      });
    });
    if (!ok)
      return rewriter.notifyMatchFailure(op, "not ((x // c) * (c*b) + y) + (x % c) * b");
    Value c = constLike(rewriter, cache, op.getLoc(), op.getType(), wrapI32(b));
    Value xb = build<MulOp>(rewriter, cache, op.getLoc(), x, c);
    replaceWithNew<AddOp>(rewriter, op, xb, y);
    return success();
  }
};

/// ((x // c) * c + y) + x % c -> x + y
struct RecombineExtra : SymbolicPattern<AddOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(AddOp op, PatternRewriter &rewriter) const override {
    Value x, y;
    bool ok = eitherOrder(op.getLhs(), op.getRhs(), [&](Value a, Value b) {
      auto inner = a.getDefiningOp<AddOp>();
      Value x2;
      int64_t c, c2;
      if (!inner || !matchXCOrdered<FloorModOp>(b, x2, c2))
        return false;
      return eitherOrder(inner.getLhs(), inner.getRhs(), [&](Value p, Value q) {
        if (!matchDivMul(p, x, c) || x != x2 || c != c2)
          return false;
        y = q;
        return true;
      });
    });
    if (!ok)
      return rewriter.notifyMatchFailure(op, "not ((x // c) * c + y) + x % c");
    replaceWithNew<AddOp>(rewriter, op, x, y);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// mul
//===----------------------------------------------------------------------===//

/// (x * c1) * c2 -> x * (c1 * c2), wrapping
struct ReassocMulConst : SymbolicPattern<MulOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(MulOp op, PatternRewriter &rewriter) const override {
    Value x;
    int64_t c1, c2;
    bool ok = eitherOrder(op.getLhs(), op.getRhs(), [&](Value a, Value b) {
      std::optional<int64_t> k = constInt(b);
      if (!k || !matchXC<MulOp>(a, x, c1))
        return false;
      c2 = *k;
      return true;
    });
    if (!ok)
      return rewriter.notifyMatchFailure(op, "not (x * c1) * c2 of i32");
    Value c = constLike(rewriter, cache, op.getLoc(), op.getType(), wrapI32(c1 * c2));
    replaceWithNew<MulOp>(rewriter, op, x, c);
    return success();
  }
};

/// (x + c1) * c2 -> x*c2 + c1*c2
struct DistributeConstAdd : SymbolicPattern<MulOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(MulOp op, PatternRewriter &rewriter) const override {
    Value x, c2v;
    int64_t c1, c2;
    bool ok = eitherOrder(op.getLhs(), op.getRhs(), [&](Value a, Value b) {
      std::optional<int64_t> k = constInt(b);
      if (!k || !matchXC<AddOp>(a, x, c1))
        return false;
      c2 = *k, c2v = b;
      return true;
    });
    if (!ok)
      return rewriter.notifyMatchFailure(op, "not (x + c1) * c2 of i32");
    Value prod = build<MulOp>(rewriter, cache, op.getLoc(), x, c2v);
    Value c = constLike(rewriter, cache, op.getLoc(), op.getType(), wrapI32(c1 * c2));
    replaceWithNew<AddOp>(rewriter, op, prod, c);
    return success();
  }
};

/// (x + y) * c -> x*c + y*c: distributing constants lets div/mod see every
/// term
struct DistributeMul : SymbolicPattern<MulOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(MulOp op, PatternRewriter &rewriter) const override {
    auto sum = op.getLhs().getDefiningOp<AddOp>();
    if (!sum || !isI32(sum.getLhs()) || !constInt(op.getRhs()))
      return rewriter.notifyMatchFailure(op, "not (x + y) * c of i32");
    Location loc = op.getLoc();
    Value a = build<MulOp>(rewriter, cache, loc, sum.getLhs(), op.getRhs());
    Value b = build<MulOp>(rewriter, cache, loc, sum.getRhs(), op.getRhs());
    replaceWithNew<AddOp>(rewriter, op, a, b);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// floordiv, floormod
//===----------------------------------------------------------------------===//

/// (x // c1) // c2 -> x // (c1 * c2) for c1, c2 > 0 without overflow
struct DivDiv : SymbolicPattern<FloorDivOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(FloorDivOp op, PatternRewriter &rewriter) const override {
    Value x;
    int64_t c1;
    std::optional<int64_t> c2 = constInt(op.getRhs());
    if (!c2 || !matchXCOrdered<FloorDivOp>(op.getLhs(), x, c1))
      return rewriter.notifyMatchFailure(op, "not (x // c1) // c2");
    if (c1 <= 0 || *c2 <= 0 || c1 * *c2 >= (int64_t(1) << 31))
      return rewriter.notifyMatchFailure(op, "c1, c2 not positive or c1*c2 overflows");
    Value c = constLike(rewriter, cache, op.getLoc(), op.getType(), c1 * *c2);
    replaceWithNew<FloorDivOp>(rewriter, op, x, c);
    return success();
  }
};

/// (x % c1) // c2 -> (x // c2) % (c1 // c2) when c2 divides c1 > 0. (The
/// seed does not require c1 > 0, which is wrong for a negative c1: x = 1,
/// c1 = -4, c2 = 2 gives -2 before and 0 after.)
struct ModDiv : SymbolicPattern<FloorDivOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(FloorDivOp op, PatternRewriter &rewriter) const override {
    Value x;
    int64_t c1;
    std::optional<int64_t> c2 = constInt(op.getRhs());
    if (!c2 || !matchXCOrdered<FloorModOp>(op.getLhs(), x, c1))
      return rewriter.notifyMatchFailure(op, "not (x % c1) // c2");
    if (*c2 <= 0 || c1 <= 0 || floorMod(c1, *c2) != 0)
      return rewriter.notifyMatchFailure(op, "c2 does not divide c1 > 0");
    Location loc = op.getLoc();
    Value q = build<FloorDivOp>(rewriter, cache, loc, x, op.getRhs());
    Value m = constLike(rewriter, cache, loc, op.getType(), c1 / *c2);
    replaceWithNew<FloorModOp>(rewriter, op, q, m);
    return success();
  }
};

/// (x % c1) % c2 -> x % c2 when c2 > 0 divides c1
struct ModMod : SymbolicPattern<FloorModOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(FloorModOp op, PatternRewriter &rewriter) const override {
    Value x;
    int64_t c1;
    std::optional<int64_t> c2 = constInt(op.getRhs());
    if (!c2 || !matchXCOrdered<FloorModOp>(op.getLhs(), x, c1))
      return rewriter.notifyMatchFailure(op, "not (x % c1) % c2");
    if (*c2 <= 0 || floorMod(c1, *c2) != 0)
      return rewriter.notifyMatchFailure(op, "c2 does not divide c1");
    replaceWithNew<FloorModOp>(rewriter, op, x, op.getRhs());
    return success();
  }
};

/// The terms of a sum, left to right (iterative: sums can be long chains).
SmallVector<Value> splitTerms(Value x) {
  SmallVector<Value> terms, stack{x};
  while (!stack.empty()) {
    Value u = stack.pop_back_val();
    if (auto add = u.getDefiningOp<AddOp>()) {
      stack.push_back(add.getRhs());
      stack.push_back(add.getLhs());
    } else {
      terms.push_back(u);
    }
  }
  return terms;
}

/// Whether every term of `u` is a multiple of c (the seed's `_divides`).
bool divides(Value u, int64_t c) {
  if (std::optional<int64_t> k = constInt(u))
    return floorMod(*k, c) == 0;
  if (auto mul = u.getDefiningOp<MulOp>())
    if (std::optional<int64_t> k = constInt(mul.getRhs()))
      return floorMod(*k, c) == 0;
  return false;
}

/// u / c for a term that `divides` says is a multiple of c (of `type`).
Built divided(PatternRewriter &rewriter, BoundsCache *cache, Location loc, Type type, Value u,
              int64_t c) {
  if (std::optional<int64_t> k = constInt(u))
    return {Value(), floorDiv(*k, c)};
  auto mul = u.getDefiningOp<MulOp>();
  int64_t k = floorDiv(*constInt(mul.getRhs()), c);
  return build<MulOp>(rewriter, cache, loc, type, known(mul.getLhs()), {Value(), k});
}

/// (a*c + b) // c -> a + b // c and (a*c + b) % c -> b % c: always true for
/// floor division (the seed's `_div_sum`).
template <typename OpTy> struct DivSum : SymbolicPattern<OpTy> {
  using SymbolicPattern<OpTy>::SymbolicPattern;
  static constexpr bool isMod = std::is_same_v<OpTy, FloorModOp>;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    std::optional<int64_t> c = constInt(op.getRhs());
    if (!isI32(op.getLhs()) || !c || *c <= 0)
      return rewriter.notifyMatchFailure(op, "not x op c of i32 with c > 0");
    SmallVector<Value> quot, rest;
    for (Value t : splitTerms(op.getLhs()))
      (divides(t, *c) ? quot : rest).push_back(t);
    if (quot.empty())
      return rewriter.notifyMatchFailure(op, "no term is a multiple of c");
    Location loc = op.getLoc();
    Type type = op.getType();
    BoundsCache *cache = this->cache;
    // Through the Built form: for i32 scalars, constants along the way are
    // made only if they are used; for tensors (splat constants) every value
    // is made as it is built.
    Built r = rest.empty() ? Built{Value(), 0} : known(rest.front());
    for (Value t : ArrayRef(rest).drop_front(rest.empty() ? 0 : 1))
      r = build<AddOp>(rewriter, cache, loc, type, r, known(t));
    Built result;
    if (isMod) {
      result = build<FloorModOp>(rewriter, cache, loc, type, r, known(op.getRhs()));
    } else {
      Built q = divided(rewriter, cache, loc, type, quot.front(), *c);
      for (Value t : ArrayRef(quot).drop_front())
        q = build<AddOp>(rewriter, cache, loc, type, q, divided(rewriter, cache, loc, type, t, *c));
      Built rq = build<FloorDivOp>(rewriter, cache, loc, type, r, known(op.getRhs()));
      result = build<AddOp>(rewriter, cache, loc, type, q, rq);
    }
    rewriter.replaceOp(op, made(rewriter, cache, loc, type, result));
    return success();
  }
};

/// x // c -> 0 and x % c -> x when bounds say 0 <= x < c
template <typename OpTy> struct DivModBounds : SymbolicPattern<OpTy> {
  using SymbolicPattern<OpTy>::SymbolicPattern;
  static constexpr bool isMod = std::is_same_v<OpTy, FloorModOp>;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    std::optional<int64_t> c = constInt(op.getRhs());
    if (!isI32(op.getLhs()) || !c)
      return rewriter.notifyMatchFailure(op, "not x op c of i32");
    IntBounds b = this->bounds(op.getLhs());
    if (!(0 <= b.min && b.max < *c))
      return rewriter.notifyMatchFailure(op, "bounds of x not within [0, c)");
    if (isMod)
      rewriter.replaceOp(op, op.getLhs());
    else
      rewriter.replaceOp(op, constLike(rewriter, this->cache, op.getLoc(), op.getType(), 0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// cmplt
//===----------------------------------------------------------------------===//

/// (x + c1) < c2 -> x < c2 - c1 when that fits in i32
struct LtAddConst : SymbolicPattern<CmpLtOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(CmpLtOp op, PatternRewriter &rewriter) const override {
    Value x;
    int64_t c1;
    std::optional<int64_t> c2 = constInt(op.getRhs());
    if (!c2 || !matchXC<AddOp>(op.getLhs(), x, c1))
      return rewriter.notifyMatchFailure(op, "not (x + c1) < c2 of i32");
    int64_t d = *c2 - c1;
    if (d < INT32_MIN || d > INT32_MAX)
      return rewriter.notifyMatchFailure(op, "c2 - c1 does not fit in i32");
    Value c = constLike(rewriter, cache, op.getLoc(), x.getType(), d);
    replaceWithNew<CmpLtOp>(rewriter, op, x, c);
    return success();
  }
};

/// x*c1 < c2 -> x < ceil(c2 / c1) for c1 > 0
struct LtMulConst : SymbolicPattern<CmpLtOp> {
  using SymbolicPattern::SymbolicPattern;
  LogicalResult matchAndRewrite(CmpLtOp op, PatternRewriter &rewriter) const override {
    Value x;
    int64_t c1;
    std::optional<int64_t> c2 = constInt(op.getRhs());
    if (!c2 || !matchXC<MulOp>(op.getLhs(), x, c1))
      return rewriter.notifyMatchFailure(op, "not x*c1 < c2 of i32");
    if (c1 <= 0)
      return rewriter.notifyMatchFailure(op, "c1 is not positive");
    Value c = constLike(rewriter, cache, op.getLoc(), x.getType(), -floorDiv(-*c2, c1));
    replaceWithNew<CmpLtOp>(rewriter, op, x, c);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Bounds
//===----------------------------------------------------------------------===//

/// An integer or bool expression whose bounds pin it to one value is that
/// value.
template <typename OpTy> struct ConstBounds : SymbolicPattern<OpTy> {
  using SymbolicPattern<OpTy>::SymbolicPattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    Type type = op->getResult(0).getType();
    Type dtype = getDType(type);
    if (unsigned width = getIntegerWidth(dtype); width != 1 && width != 32)
      return rewriter.notifyMatchFailure(op, "not an integer or bool value");
    IntBounds b = this->bounds(op->getResult(0));
    if (!b.isConstant())
      return rewriter.notifyMatchFailure(op, "bounds do not pin the value");
    rewriter.replaceOp(op, constLike(rewriter, this->cache, op.getLoc(), type, b.min));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void addAddPatterns(RewritePatternSet &p, BoundsCache *cache) {
  p.add<AddSelf, ReassocAddConst, HoistConstAdd, CombineMulTerms, CombineMulSelf, Recombine,
        RecombineExtra, RecombineScaled, RecombineScaledExtra, ConstBounds<AddOp>>(p.getContext(), cache);
}
void addMulPatterns(RewritePatternSet &p, BoundsCache *cache) {
  p.add<ReassocMulConst, DistributeConstAdd, DistributeMul, ConstBounds<MulOp>>(p.getContext(),
                                                                                cache);
}
void addFloorDivPatterns(RewritePatternSet &p, BoundsCache *cache) {
  p.add<DivDiv, ModDiv, DivSum<FloorDivOp>, DivModBounds<FloorDivOp>, ConstBounds<FloorDivOp>>(
      p.getContext(), cache);
}
void addFloorModPatterns(RewritePatternSet &p, BoundsCache *cache) {
  // No ConstBounds: bounds pin x % c only for c == 1 (else they are x's, when
  // DivModBounds applies, or [0, c)), and x % 1 folds first. uop-smt-check's
  // corpus, which fires every other rule, never fired it.
  p.add<ModMod, DivSum<FloorModOp>, DivModBounds<FloorModOp>>(p.getContext(), cache);
}
void addCmpLtPatterns(RewritePatternSet &p, BoundsCache *cache) {
  p.add<LtAddConst, LtMulConst, ConstBounds<CmpLtOp>>(p.getContext(), cache);
}

} // namespace

void mlir::uop::populateSymbolicPatterns(RewritePatternSet &patterns, BoundsCache *cache) {
  addAddPatterns(patterns, cache);
  addMulPatterns(patterns, cache);
  addFloorDivPatterns(patterns, cache);
  addFloorModPatterns(patterns, cache);
  addCmpLtPatterns(patterns, cache);
  // No ConstBounds<CastOp>: bounds pin a cast only when its operand is a
  // pinned bool (a cast to its own dtype folds away), and that operand, an ALU
  // op simplified before the cast, is a constant by then, which the cast's
  // folder folds.
  patterns.add<ConstBounds<MaxOp>, ConstBounds<CmpNeOp>, ConstBounds<WhereOp>>(
      patterns.getContext(), cache);
}

void AddOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *) {
  addAddPatterns(results, nullptr);
}
void MulOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *) {
  addMulPatterns(results, nullptr);
}
void FloorDivOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *) {
  addFloorDivPatterns(results, nullptr);
}
void FloorModOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *) {
  addFloorModPatterns(results, nullptr);
}
void CmpLtOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *context) {
  addCmpLtPatterns(results, nullptr);
}
void MaxOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<ConstBounds<MaxOp>>(context, nullptr);
}
void CmpNeOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<ConstBounds<CmpNeOp>>(context, nullptr);
}
void WhereOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<ConstBounds<WhereOp>>(context, nullptr);
}
// A cast's only canonicalizations are its folder's (see populateSymbolicPatterns).
void CastOp::getCanonicalizationPatterns(RewritePatternSet &, MLIRContext *) {}
