//===- MathToEmitC.cpp - uop's math patterns for the C path -----*- C++ -*-===//
//
// Upstream's convert-math-to-emitc calls libm for sin, cos, exp, floor,
// ceil, fabs, round, asin, acos, pow and atan2 on f32 and f64 (those keep
// its patterns). It lacks what uop's kernels use most, so these are uop's:
//
// * exp2, log2, sqrt, log, tanh, trunc: `exp2f(x)` (f32), `exp2(x)` (f64),
//   as the seed's UNARY_FN;
// * rsqrt: `1.0f / sqrtf(x)`; fma: `fmaf(a, b, c)` (the lane form of
//   vector.fma);
// * every one of these and upstream's on f16: through float,
//   `(_Float16)exp2f((float)x)`, what LLVM does for half on the CPU and what
//   the seed's C gets from C's promotion.
//
// (The CPU's LLVM path expands exp2/log2 into polynomials, uop-expand-math;
// the C path calls libm, whose results are correctly rounded: within the
// comparison's tolerance of each other.)
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

/// A math op and the libm function of its f32 form.
template <typename MathOp> struct LibmCall : OpConversionPattern<MathOp> {
  LibmCall(const TypeConverter &converter, MLIRContext *ctx, StringRef f32Name, bool upstreamHasF32)
      : OpConversionPattern<MathOp>(converter, ctx, /*benefit=*/2), f32Name(f32Name.str()),
        upstreamHasF32(upstreamHasF32) {}

  LogicalResult matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    bool f16 = type.isF16() || type.isBF16();
    if (!f16 && !type.isF32() && !type.isF64())
      return rewriter.notifyMatchFailure(op, "not a float C has a libm function of");
    if (!f16 && upstreamHasF32)
      return rewriter.notifyMatchFailure(op, "upstream's convert-math-to-emitc takes it");
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Type callType = f16 ? f32 : type;
    SmallVector<Value> args;
    for (Value v : adaptor.getOperands())
      args.push_back(f16 ? Value(emitc::CastOp::create(rewriter, loc, f32, v)) : v);
    // exp2f for float, exp2 for double.
    std::string name = type.isF64() ? f32Name.substr(0, f32Name.size() - 1) : f32Name;
    Value r;
    if (name == "rsqrtf" || name == "rsqrt") {
      std::string sqrt = type.isF64() ? "sqrt" : "sqrtf";
      Value s = emitc::CallOpaqueOp::create(rewriter, loc, callType, sqrt, args).getResult(0);
      Value one = emitc::LiteralOp::create(rewriter, loc, callType, type.isF64() ? "1.0" : "1.0f");
      r = emitc::DivOp::create(rewriter, loc, callType, one, s);
    } else {
      r = emitc::CallOpaqueOp::create(rewriter, loc, callType, name, args).getResult(0);
    }
    if (f16)
      r = emitc::CastOp::create(rewriter, loc, type, r);
    rewriter.replaceOp(op, r);
    return success();
  }

  std::string f32Name;
  bool upstreamHasF32;
};

} // namespace

void mlir::uop::populateUopMathToEmitCPatterns(const CTypeConverter &converter,
                                               RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  // What upstream lacks.
  patterns.add<LibmCall<math::Exp2Op>>(converter, ctx, "exp2f", false);
  patterns.add<LibmCall<math::Log2Op>>(converter, ctx, "log2f", false);
  patterns.add<LibmCall<math::SqrtOp>>(converter, ctx, "sqrtf", false);
  patterns.add<LibmCall<math::RsqrtOp>>(converter, ctx, "rsqrtf", false);
  patterns.add<LibmCall<math::LogOp>>(converter, ctx, "logf", false);
  patterns.add<LibmCall<math::TanhOp>>(converter, ctx, "tanhf", false);
  patterns.add<LibmCall<math::TruncOp>>(converter, ctx, "truncf", false);
  patterns.add<LibmCall<math::FmaOp>>(converter, ctx, "fmaf", false);
  // Upstream's, on f16 only.
  patterns.add<LibmCall<math::SinOp>>(converter, ctx, "sinf", true);
  patterns.add<LibmCall<math::CosOp>>(converter, ctx, "cosf", true);
  patterns.add<LibmCall<math::ExpOp>>(converter, ctx, "expf", true);
  patterns.add<LibmCall<math::FloorOp>>(converter, ctx, "floorf", true);
  patterns.add<LibmCall<math::CeilOp>>(converter, ctx, "ceilf", true);
  patterns.add<LibmCall<math::AbsFOp>>(converter, ctx, "fabsf", true);
  patterns.add<LibmCall<math::RoundOp>>(converter, ctx, "roundf", true);
  patterns.add<LibmCall<math::PowFOp>>(converter, ctx, "powf", true);
}
