//===- ExpandMath.cpp - exp2/log2 as vectorizable arithmetic ----*- C++ -*-===//
//
// uop-expand-math: math.exp2 and math.log2 on f32 (f16 through f32), scalar
// or vector, become arith ops. LLVM lowers llvm.exp2/llvm.log2 to libm calls
// and has no vector mapping of them on x86, so a vector exp2 is one call per
// lane and a loop around a scalar one does not vectorize; the expansion is
// branch-free arithmetic that does. See the pass description (Passes.td) for
// the algorithms and their accuracy.
//
//===----------------------------------------------------------------------===//

#include "Uop/Codegen/Passes.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPEXPANDMATHPASS
#include "Uop/Codegen/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;

namespace {

/// Builds scalar-or-vector arithmetic of the shape of one value: constants
/// are splats of that shape, element types are swapped (f32 <-> i32 <-> f64)
/// keeping it.
struct ShapedBuilder {
  ImplicitLocOpBuilder &b;
  /// The vector type of the operand, or null for a scalar.
  VectorType shape;

  Type like(Type element) const {
    return shape ? Type(VectorType::get(shape.getShape(), element, shape.getScalableDims()))
                 : element;
  }
  Value constant(TypedAttr scalar) const {
    if (!shape)
      return arith::ConstantOp::create(b, scalar);
    auto type = cast<VectorType>(like(scalar.getType()));
    return arith::ConstantOp::create(b, DenseElementsAttr::get(type, scalar));
  }
  Value f32(float v) const { return constant(b.getF32FloatAttr(v)); }
  Value f64(double v) const { return constant(b.getF64FloatAttr(v)); }
  Value i32(int32_t v) const { return constant(b.getI32IntegerAttr(v)); }

  /// Polynomial steps may be fused into FMAs where the target has them
  /// (`contract`); the exact steps (range reduction) carry no flags.
  arith::FastMathFlagsAttr contract() const {
    return arith::FastMathFlagsAttr::get(b.getContext(), arith::FastMathFlags::contract);
  }
  /// Horner's rule: coeffs[0] * x^(n-1) + ... + coeffs[n-1].
  Value horner(Value x, ArrayRef<Value> coeffs) const {
    Value acc = coeffs.front();
    for (Value c : coeffs.drop_front())
      acc = arith::AddFOp::create(b, arith::MulFOp::create(b, acc, x, contract()), c, contract());
    return acc;
  }
  Value select(Value cond, Value t, Value f) const {
    return arith::SelectOp::create(b, cond, t, f);
  }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) const {
    return arith::CmpFOp::create(b, p, x, y);
  }
  Value bitcast(Value v, Type element) const {
    return arith::BitcastOp::create(b, like(element), v);
  }
};

/// Whether `type` is f32 or f16, or a fixed-size vector of them; sets `f16`.
static bool isExpandable(Type type, bool &f16) {
  auto vec = dyn_cast<VectorType>(type);
  if (vec && vec.isScalable())
    return false;
  Type element = getElementTypeOrSelf(type);
  f16 = element.isF16();
  return element.isF32() || f16;
}

/// The shared half of both patterns: f32 (scalar or vector) is expanded by
/// `Derived::expand(b, s, x)`; f16 ops compute in f32 and round the result
/// back (the seed's C promotes half to float in exp2/log2 the same way),
/// through an f32 op that this pattern then expands.
template <typename Derived, typename OpTy> struct ExpandF32 : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    bool f16;
    if (!isExpandable(op.getType(), f16))
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ShapedBuilder s{b, dyn_cast<VectorType>(op.getType())};
    if (f16) {
      Value wide = arith::ExtFOp::create(b, s.like(b.getF32Type()), op.getOperand());
      rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(), OpTy::create(b, wide));
      return success();
    }
    rewriter.replaceOp(op, Derived::expand(b, s, op.getOperand()));
    return success();
  }
};

struct ExpandExp2 : ExpandF32<ExpandExp2, math::Exp2Op> {
  using ExpandF32::ExpandF32;

  static Value expand(ImplicitLocOpBuilder &b, const ShapedBuilder &s, Value x) {
    Type i32 = b.getI32Type(), f32 = b.getF32Type();
    using P = arith::CmpFPredicate;

    // Past 129 the result is inf, below -151 it is 0 (2^-150 rounds to even
    // 0): clamping there keeps n in range, and +-inf with it. A NaN fails
    // both ordered compares and stays NaN through the arithmetic below.
    Value hi = s.f32(129.0f), lo = s.f32(-151.0f);
    Value xc = s.select(s.cmp(P::OGT, x, hi), hi, x);
    xc = s.select(s.cmp(P::OLT, xc, lo), lo, xc);

    // n = round-to-even(xc): 1.5*2^23 + xc has no fraction bits left, and
    // its low mantissa bits are n in two's complement (|n| < 2^22). No
    // fptosi, which is poison on a NaN.
    Value magic = s.f32(0x1.8p23f);
    Value t = arith::AddFOp::create(b, xc, magic);
    Value n = arith::SubFOp::create(b, t, magic);
    Value f = arith::SubFOp::create(b, xc, n); // exact, in [-0.5, 0.5]
    Value ni = arith::SubIOp::create(b, s.bitcast(t, i32), s.i32(0x4B400000));

    // 2^f on [-0.5, 0.5]: SLEEF's xexp2f minimax polynomial.
    Value p = s.horner(f, {s.f32(0.1535920892e-3f), s.f32(0.1339262701e-2f),
                           s.f32(0.9618384764e-2f), s.f32(0.5550347269e-1f),
                           s.f32(0.2402264476e+0f), s.f32(0.6931471825e+0f), s.f32(1.0f)});

    // p * 2^n as p * 2^n1 * 2^n2, n1 = n >> 1, n2 = n - n1: both scales are
    // normal floats for n in [-151, 129], p * 2^n1 is exact, and the second
    // product rounds once, into a denormal, inf or 0 where the result is.
    Value n1 = arith::ShRSIOp::create(b, ni, s.i32(1));
    Value n2 = arith::SubIOp::create(b, ni, n1);
    auto scale = [&](Value k) {
      Value biased = arith::AddIOp::create(b, k, s.i32(127));
      return s.bitcast(arith::ShLIOp::create(b, biased, s.i32(23)), f32);
    };
    return arith::MulFOp::create(b, arith::MulFOp::create(b, p, scale(n1)), scale(n2));
  }
};

struct ExpandLog2 : ExpandF32<ExpandLog2, math::Log2Op> {
  using ExpandF32::ExpandF32;

  static Value expand(ImplicitLocOpBuilder &b, const ShapedBuilder &s, Value x) {
    Type i32 = b.getI32Type(), f32 = b.getF32Type(), f64 = b.getF64Type();
    using P = arith::CmpFPredicate;

    // Denormals (and everything below, which the selects at the end
    // replace) are scaled into the normal range first.
    Value sub = s.cmp(P::OLT, x, s.f32(0x1p-126f));
    Value xs = s.select(sub, arith::MulFOp::create(b, x, s.f32(0x1p64f)), x);

    // xs = 2^e * m, m in [1, 2) from the bits, then in [sqrt(1/2), sqrt(2))
    // so that |(m-1)/(m+1)| <= 0.1716.
    Value bits = s.bitcast(xs, i32);
    Value e = arith::SubIOp::create(
        b, arith::AndIOp::create(b, arith::ShRUIOp::create(b, bits, s.i32(23)), s.i32(0xff)),
        s.i32(127));
    Value mbits =
        arith::OrIOp::create(b, arith::AndIOp::create(b, bits, s.i32(0x7fffff)), s.i32(0x3f800000));
    Value m = s.bitcast(mbits, f32);
    Value big = s.cmp(P::OGT, m, s.f32(static_cast<float>(M_SQRT2)));
    m = s.select(big, arith::MulFOp::create(b, m, s.f32(0.5f)), m);
    e = arith::AddIOp::create(b, e, arith::ExtUIOp::create(b, s.like(i32), big));
    Value ef = arith::SIToFPOp::create(b, s.like(f32), e);
    ef = arith::SubFOp::create(b, ef, s.select(sub, s.f32(64.0f), s.f32(0.0f)));

    // log2(m) = 2/ln2 * (a + a^3/3 + a^5/5 + ...), a = (m-1)/(m+1), in f64:
    // the terms through a^11 leave 2^-33 relative, so the f32 result is one
    // rounding of a value within about 2^-30 relative of the exact one (f32
    // arithmetic would lose up to ~3 ulp where e + log2(m) cancels).
    Value md = arith::ExtFOp::create(b, s.like(f64), m);
    Value one = s.f64(1.0);
    Value a = arith::DivFOp::create(b, arith::SubFOp::create(b, md, one),
                                    arith::AddFOp::create(b, md, one));
    Value a2 = arith::MulFOp::create(b, a, a);
    SmallVector<Value> coeffs;
    for (int k = 11; k >= 1; k -= 2)
      coeffs.push_back(s.f64(2.0 / (k * M_LN2)));
    Value series = arith::MulFOp::create(b, a, s.horner(a2, coeffs));
    Value sum = arith::AddFOp::create(b, arith::ExtFOp::create(b, s.like(f64), ef), series);
    Value r = arith::TruncFOp::create(b, s.like(f32), sum);

    // log2(inf) = inf, log2(+-0) = -inf, log2(x < 0) = log2(NaN) = NaN.
    float inf = std::numeric_limits<float>::infinity();
    r = s.select(s.cmp(P::OEQ, x, s.f32(inf)), s.f32(inf), r);
    r = s.select(s.cmp(P::OEQ, x, s.f32(0.0f)), s.f32(-inf), r);
    return s.select(s.cmp(P::ULT, x, s.f32(0.0f)),
                    s.f32(std::numeric_limits<float>::quiet_NaN()), r);
  }
};

struct UopExpandMathPass : mlir::uop::impl::UopExpandMathPassBase<UopExpandMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    mlir::uop::populateUopExpandMathPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::uop::populateUopExpandMathPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandExp2, ExpandLog2>(patterns.getContext());
}
