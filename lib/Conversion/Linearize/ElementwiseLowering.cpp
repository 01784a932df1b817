//===- ElementwiseLowering.cpp - uop ALU ops to arith/math ------*- C++ -*-===//
//
// One lowering per uop ALU op, registered in populateElementwiseLowerings.
// Most rows are instances of a few templates: a binary op that is one arith
// op per dtype family (float, int, bool), a comparison (one predicate per
// family), a unary math op. The ops whose lowering is more than one op
// (max, floordiv, floormod, cast, recip) have small patterns of their own.
// A lowering sees its operands already lowered and shaped (scalars, or
// vectors across the lanes of a jammed loop) and the kernel-wide decisions
// (ArithFlags, RuntimeChecks) through its ElementwiseContext; it never
// decides about lanes itself (Emitter::emitElementwise does).
//
// Why a table and not applyPartialConversion with OpConversionPatterns:
// uop-linearize's source is a scheduled DAG, not IR to rewrite in place.
// Each uop value is emitted into the loop bodies the scheduler creates (in
// the schedule's order, not the graph's), and one uop value becomes a
// scalar or a vector<W x T> depending on the lanes it sits in, which a
// TypeConverter (one type per type) cannot say; memory values even become
// a memref plus an index and a lane stride. The dialect conversion driver
// would walk the graph in place and map each value to one converted value.
// So the emitter walks the schedule, and these lowerings are looked up by
// op, the way the driver would look up a pattern by root.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseLowering.h"

#include "ArithFlags.h"
#include "Lanes.h"
#include "RuntimeChecks.h"

#include "Uop/IR/UopOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include <utility>

using namespace mlir;
using namespace mlir::uop;

bool ElementwiseOperands::isFloat() const { return isFloatDType(in); }

bool ElementwiseOperands::isBool() const { return in.isInteger(1); }

Type ElementwiseOperands::shaped(Type t) const {
  return lanes ? Type(VectorType::get({lanes}, t)) : t;
}

ElementwiseLowering::~ElementwiseLowering() = default;

void ElementwiseLowerings::insert(std::unique_ptr<ElementwiseLowering> lowering) {
  TypeID root = lowering->getRoot();
  [[maybe_unused]] bool inserted = table.try_emplace(root, std::move(lowering)).second;
  assert(inserted && "two elementwise lowerings of one op");
}

const ElementwiseLowering *ElementwiseLowerings::lookup(Operation *op) const {
  auto it = table.find(op->getName().getTypeID());
  return it == table.end() ? nullptr : it->second.get();
}

namespace {

//===----------------------------------------------------------------------===//
// Templates: one arith/math op per dtype family
//===----------------------------------------------------------------------===//

/// A binary `SrcOp` that is `FloatOp` on floats (with the op's fast-math
/// flags), `IntOp` on i32 (with its overflow flags) and `BoolOp` on bools.
template <typename SrcOp, typename FloatOp, typename IntOp, typename BoolOp>
struct ArithBinaryLowering : ElementwiseOpLowering<SrcOp> {
  Value lower(Operation *op, const ElementwiseOperands &xs,
              ElementwiseContext &ctx) const override {
    OpBuilder &b = ctx.b;
    Location loc = op->getLoc();
    if (xs.isFloat())
      return FloatOp::create(b, loc, xs[0], xs[1],
                             arith::FastMathFlagsAttr::get(b.getContext(), ctx.flags.fastMath(op)));
    if (xs.isBool())
      return BoolOp::create(b, loc, xs[0], xs[1]);
    return IntOp::create(b, loc, xs[0], xs[1], ctx.flags.overflow(op));
  }
};

/// `x pred y`: `F` on floats, `I` on i32, `B` on bools (unsigned).
template <arith::CmpFPredicate F, arith::CmpIPredicate I, arith::CmpIPredicate B>
static Value compare(OpBuilder &b, Location loc, const ElementwiseOperands &xs) {
  if (xs.isFloat())
    return arith::CmpFOp::create(b, loc, F, xs[0], xs[1]);
  return arith::CmpIOp::create(b, loc, xs.isBool() ? B : I, xs[0], xs[1]);
}

/// A comparison `SrcOp`: see compare.
template <typename SrcOp, arith::CmpFPredicate F, arith::CmpIPredicate I, arith::CmpIPredicate B>
struct CompareLowering : ElementwiseOpLowering<SrcOp> {
  Value lower(Operation *op, const ElementwiseOperands &xs,
              ElementwiseContext &ctx) const override {
    return compare<F, I, B>(ctx.b, op->getLoc(), xs);
  }
};

/// A `SrcOp` of `N` operands that is the `DstOp` of the same operands
/// (select, math ops).
template <typename SrcOp, typename DstOp, unsigned N>
struct OneToOneLowering : ElementwiseOpLowering<SrcOp> {
  Value lower(Operation *op, const ElementwiseOperands &xs,
              ElementwiseContext &ctx) const override {
    return create(ctx.b, op->getLoc(), xs, std::make_index_sequence<N>());
  }
  /// `DstOp` of operands `Is...`.
  template <size_t... Is>
  static Value create(OpBuilder &b, Location loc, const ElementwiseOperands &xs,
                      std::index_sequence<Is...>) {
    return DstOp::create(b, loc, xs[Is]...);
  }
};

/// A unary `SrcOp` that is the math op `DstOp`.
template <typename SrcOp, typename DstOp>
using UnaryMathLowering = OneToOneLowering<SrcOp, DstOp, 1>;

//===----------------------------------------------------------------------===//
// Patterns of their own
//===----------------------------------------------------------------------===//

/// C's ((a>b)?a:b): with a NaN, the result is b.
struct MaxLowering : ElementwiseOpLowering<MaxOp> {
  Value lower(Operation *op, const ElementwiseOperands &xs,
              ElementwiseContext &ctx) const override {
    Location loc = op->getLoc();
    Value gt =
        compare<arith::CmpFPredicate::OGT, arith::CmpIPredicate::sgt, arith::CmpIPredicate::ugt>(
            ctx.b, loc, xs);
    return arith::SelectOp::create(ctx.b, loc, gt, xs[0], xs[1]);
  }
};

/// C division truncates; it equals floor division when both sides are
/// non-negative (render_c's rule: vmin(a) >= 0 and b a positive constant).
/// Elsewhere an i32 divisor is made safe by the run-time checks.
template <typename SrcOp> struct FloorDivisionLowering : ElementwiseOpLowering<SrcOp> {
  Value lower(Operation *op, const ElementwiseOperands &xs,
              ElementwiseContext &ctx) const override {
    auto x = ctx.checks.rangeOf(op->getOperand(0));
    APInt c;
    bool plain = x && x->first >= 0 && matchPattern(op->getOperand(1), m_ConstantInt(&c)) &&
                 c.isStrictlyPositive();
    Value y = xs[1];
    if (!xs.isFloat() && !plain)
      y = ctx.checks.checkDivisor(op, xs[0], y);
    return divide(op->getLoc(), xs, xs[0], y, plain, ctx.b);
  }
  /// The division of `x` by the (safe) divisor `y`; `plain` when C's
  /// truncating division is the floor division.
  virtual Value divide(Location loc, const ElementwiseOperands &xs, Value x, Value y, bool plain,
                       OpBuilder &b) const = 0;
};

/// floordiv: arith's floordivsi, or divsi where it is the same.
struct FloorDivLowering : FloorDivisionLowering<FloorDivOp> {
  Value divide(Location loc, const ElementwiseOperands &, Value x, Value y, bool plain,
               OpBuilder &b) const override {
    if (plain)
      return arith::DivSIOp::create(b, loc, x, y);
    return arith::FloorDivSIOp::create(b, loc, x, y);
  }
};

/// floormod: remsi, corrected to the divisor's sign where it differs.
struct FloorModLowering : FloorDivisionLowering<FloorModOp> {
  Value divide(Location loc, const ElementwiseOperands &xs, Value x, Value y, bool plain,
               OpBuilder &b) const override {
    if (plain)
      return arith::RemSIOp::create(b, loc, x, y);
    // floormod_i32: r = a % b; (r != 0 && (r < 0) != (b < 0)) ? r + b : r
    Value rem = arith::RemSIOp::create(b, loc, x, y);
    Value zero = constLike(b, x, b.getIntegerAttr(xs.in, 0));
    Value nz = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rem, zero);
    Value rneg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rem, zero);
    Value bneg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, y, zero);
    Value diff = arith::XOrIOp::create(b, loc, rneg, bneg);
    Value fix = arith::AndIOp::create(b, loc, nz, diff);
    Value sum = arith::AddIOp::create(b, loc, rem, y);
    return arith::SelectOp::create(b, loc, fix, sum, rem);
  }
};

/// C's casts between f32, f16, i32 and bool.
struct CastLowering : ElementwiseOpLowering<CastOp> {
  Value lower(Operation *op, const ElementwiseOperands &xs,
              ElementwiseContext &ctx) const override {
    OpBuilder &b = ctx.b;
    Location loc = op->getLoc();
    Value x = xs[0];
    Type to = cast<CastOp>(op).getDtype();
    Type from = xs.in;
    if (from == to)
      return x;
    if (to.isInteger(1)) {
      // (_Bool)x is x != 0 (a NaN is true).
      if (isFloatDType(from)) {
        Value zero = constLike(b, x, b.getFloatAttr(from, 0.0));
        return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
      }
      Value zero = constLike(b, x, b.getIntegerAttr(from, 0));
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
    }
    if (isFloatDType(to)) {
      if (isFloatDType(from))
        return to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth()
                   ? arith::ExtFOp::create(b, loc, xs.shaped(to), x).getResult()
                   : arith::TruncFOp::create(b, loc, xs.shaped(to), x).getResult();
      if (from.isInteger(1))
        return arith::UIToFPOp::create(b, loc, xs.shaped(to), x);
      return arith::SIToFPOp::create(b, loc, xs.shaped(to), x);
    }
    // To i32.
    if (isFloatDType(from)) {
      // Truncation toward zero, saturating (UopSemantics.h saturateToI32:
      // what folding gives): NaN is 0, past the range its nearest end.
      // fptosi alone is poison there (x86 gave INT_MIN for all three).
      Value t = arith::FPToSIOp::create(b, loc, xs.shaped(to), x);
      auto f = [&](double v) { return constLike(b, x, b.getFloatAttr(from, v)); };
      auto i = [&](int64_t v) { return constLike(b, t, b.getI32IntegerAttr(v)); };
      using P = arith::CmpFPredicate;
      // +-2^31 are exact in f32 and +-inf in f16 (whose finite values fit).
      Value big = arith::CmpFOp::create(b, loc, P::OGE, x, f(2147483648.0));
      Value small = arith::CmpFOp::create(b, loc, P::OLE, x, f(-2147483648.0));
      Value nan = arith::CmpFOp::create(b, loc, P::UNO, x, x);
      t = arith::SelectOp::create(b, loc, big, i(INT32_MAX), t);
      t = arith::SelectOp::create(b, loc, small, i(INT32_MIN), t);
      return arith::SelectOp::create(b, loc, nan, i(0), t);
    }
    return arith::ExtUIOp::create(b, loc, xs.shaped(to), x);    // bool -> 0/1
  }
};

/// An index checked against its axis (RuntimeChecks::checkAxisIndex).
struct CheckIndexLowering : ElementwiseOpLowering<CheckIndexOp> {
  Value lower(Operation *op, const ElementwiseOperands &xs,
              ElementwiseContext &ctx) const override {
    return ctx.checks.checkAxisIndex(cast<CheckIndexOp>(op), xs[0]);
  }
};

/// 1 / x.
struct RecipLowering : ElementwiseOpLowering<RecipOp> {
  Value lower(Operation *op, const ElementwiseOperands &xs,
              ElementwiseContext &ctx) const override {
    Value one = constLike(ctx.b, xs[0], ctx.b.getFloatAttr(xs.in, 1.0));
    return arith::DivFOp::create(ctx.b, op->getLoc(), one, xs[0]);
  }
};

} // namespace

void mlir::uop::populateElementwiseLowerings(ElementwiseLowerings &table) {
  using F = arith::CmpFPredicate;
  using I = arith::CmpIPredicate;
  // One row a line.
  // clang-format off
  table.add<
      // C's (_Bool)(a + b) is a | b, and (_Bool)(a * b) is a & b.
      ArithBinaryLowering<uop::AddOp, arith::AddFOp, arith::AddIOp, arith::OrIOp>,
      ArithBinaryLowering<uop::MulOp, arith::MulFOp, arith::MulIOp, arith::AndIOp>,
      CompareLowering<uop::CmpLtOp, F::OLT, I::slt, I::ult>,
      CompareLowering<uop::CmpNeOp, F::UNE, I::ne, I::ne>,
      MaxLowering,
      FloorDivLowering,
      FloorModLowering,
      OneToOneLowering<uop::WhereOp, arith::SelectOp, 3>,
      CastLowering,
      CheckIndexLowering,
      RecipLowering,
      UnaryMathLowering<uop::Exp2Op, math::Exp2Op>,
      UnaryMathLowering<uop::Log2Op, math::Log2Op>,
      UnaryMathLowering<uop::SqrtOp, math::SqrtOp>,
      UnaryMathLowering<uop::SinOp, math::SinOp>>();
  // clang-format on
}
