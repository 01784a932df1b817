//===- ArithToEmitC.cpp - uop's arith patterns for the C path ---*- C++ -*-===//
//
// What upstream's convert-arith-to-emitc lacks or writes unlike the seed
// (its patterns do the rest: add, mul, casts, select, integer compares):
//
// * arith.constant -> emitc.literal: the constant written at its use
//   (`i < 64`, `acc = 0.0f`, `-INFINITY`), as the seed's cconst; upstream
//   declares every constant as a variable (`int32_t v5 = 64;`).
// * arith.cmpf oeq/ogt/oge/olt/ole/une -> C's ==, >, >=, <, <=, !=, which
//   are exactly those IEEE predicates; upstream adds `a == a && b == b`
//   guards to every ordered compare (right under -ffast-math, which uop
//   does not use), so the seed's max `(a>b)?a:b` read
//   `(a == a && b == b) && a > b ? a : b`.
// * arith.index_cast -> one C cast, `(int32_t) x` or `(size_t) x`; upstream
//   casts through ptrdiff_t, `(int32_t) ((ptrdiff_t) threadIdx.x)`, which
//   gcc, clang and nvcc compute the same (two's complement conversions).
// * arith.floordivsi -> `floordiv_i32(a, b)` and the floor modulo that
//   uop-linearize expands (remsi, then `r + b` where r and b differ in
//   sign) -> `floormod_i32(a, b)`: the seed's prelude helpers; upstream has
//   no floordivsi, and the expansion read as five lines.
// * index (`size_t`, unsigned as index's unsigned ops are) divui, remui,
//   andi, ori, xori -> C's `/`, `%`, `&`, `|`, `^` (uop-lower-gemm's lane and
//   swizzle arithmetic); upstream takes integers only.
// * arith.minsi/maxsi/minui/maxui -> `a < b ? a : b` (a signed compare of
//   index through ptrdiff_t, an unsigned one of an int through its unsigned
//   type), which upstream lacks.
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

#include "mlir/IR/Matchers.h"
#include "llvm/Support/Error.h"

using namespace mlir;
using namespace mlir::uop;

/// C's spelling of a constant of `type` (the seed's cconst): `true`, `64`,
/// `(-2147483647-1)`, `1.5f`, `0.1`, `((_Float16)1.5f)`, `(-INFINITY)`,
/// `NAN`; with `parenthesize`, a negative one is in parentheses (the
/// emitter writes a literal operand as it is: the negation of `-1.0f`
/// would read `--1.0f`). "" if none.
static std::string cLiteral(TypedAttr value, bool parenthesize) {
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    APInt v = i.getValue();
    Type t = i.getType();
    if (t.isInteger(1))
      return v.getBoolValue() ? "true" : "false";
    bool isUnsigned = t.isUnsignedInteger();
    unsigned w = v.getBitWidth();
    std::string suffix =
        std::string(isUnsigned ? "u" : "") + (w == 64 && !isa<IndexType>(t) ? "LL" : "");
    if (!isUnsigned && !isa<IndexType>(t) && v.isMinSignedValue() && w >= 32) {
      // -2147483648 is the negation of a constant too large for an int.
      APInt max = APInt::getSignedMaxValue(w);
      return "(-" + llvm::toString(max, 10, true) + suffix + "-1)";
    }
    std::string s = llvm::toString(v, 10, !isUnsigned) + suffix;
    return parenthesize && v.isNegative() && !isUnsigned ? "(" + s + ")" : s;
  }
  auto f = dyn_cast<FloatAttr>(value);
  if (!f)
    return "";
  APFloat v = f.getValue();
  std::string s;
  if (v.isNaN()) {
    s = "NAN";
  } else if (v.isInfinity()) {
    s = v.isNegative() ? "-INFINITY" : "INFINITY";
  } else {
    // The fewest digits that read back as this value (1.0001f, not
    // 1.00010002f).
    for (unsigned precision = 1; precision <= 17; ++precision) {
      SmallString<32> digits;
      v.toString(digits, precision, /*FormatMaxPadding=*/3, /*TruncateZero=*/true);
      APFloat back(v.getSemantics());
      auto status = back.convertFromString(digits, APFloat::rmNearestTiesToEven);
      if (!status) {
        llvm::consumeError(status.takeError());
        continue;
      }
      if (back.bitwiseIsEqual(v)) {
        s = digits.str().str();
        break;
      }
    }
    if (s.find_first_of(".eEn") == std::string::npos)
      s += ".0";
    Type t = f.getType();
    if (t.isF32())
      s += "f";
    else if (t.isF16())
      s = "((_Float16)" + s + "f)";
    else if (t.isBF16())
      s = "((__bf16)" + s + "f)";
    else if (!t.isF64())
      return "";
  }
  Type t = f.getType();
  if (!t.isF32() && (v.isNaN() || v.isInfinity()))
    s = "((" + CTypeConverter::getCTypeName(t) + ")" + s + ")";
  if (parenthesize && s[0] == '-')
    s = "(" + s + ")";
  return s;
}

namespace {

/// arith.constant (a scalar) -> emitc.literal.
struct ConstantToLiteral : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    auto value = dyn_cast<TypedAttr>(op.getValue());
    // Only an operand of a unary operator needs parentheses.
    bool unaryUser = llvm::any_of(op->getUsers(), llvm::IsaPred<arith::NegFOp>);
    std::string text = value ? cLiteral(value, unaryUser) : "";
    if (!type || text.empty())
      return rewriter.notifyMatchFailure(op, "not a scalar C constant");
    rewriter.replaceOpWithNewOp<emitc::LiteralOp>(op, type, text);
    return success();
  }
};

/// arith.cmpf with an IEEE predicate C's operator is -> emitc.cmp.
struct OrderedCmpF : OpConversionPattern<arith::CmpFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::CmpFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<emitc::CmpPredicate> pred;
    switch (op.getPredicate()) {
    case arith::CmpFPredicate::OEQ:
      pred = emitc::CmpPredicate::eq;
      break;
    case arith::CmpFPredicate::OGT:
      pred = emitc::CmpPredicate::gt;
      break;
    case arith::CmpFPredicate::OGE:
      pred = emitc::CmpPredicate::ge;
      break;
    case arith::CmpFPredicate::OLT:
      pred = emitc::CmpPredicate::lt;
      break;
    case arith::CmpFPredicate::OLE:
      pred = emitc::CmpPredicate::le;
      break;
    case arith::CmpFPredicate::UNE:
      pred = emitc::CmpPredicate::ne;
      break;
    default:
      break;
    }
    Type type = getTypeConverter()->convertType(op.getType());
    if (!pred || !type || !isa<FloatType>(op.getLhs().getType()))
      return rewriter.notifyMatchFailure(op, "not a scalar compare C's operators are");
    rewriter.replaceOpWithNewOp<emitc::CmpOp>(op, type, *pred, adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

/// arith.index_cast (scalar) -> emitc.cast.
struct IndexCast : OpConversionPattern<arith::IndexCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::IndexCastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type || !emitc::isIntegerIndexOrOpaqueType(type) || isa<emitc::OpaqueType>(type))
      return rewriter.notifyMatchFailure(op, "not a scalar cast");
    rewriter.replaceOpWithNewOp<emitc::CastOp>(op, type, adaptor.getIn());
    return success();
  }
};

/// arith.floordivsi (i32) -> floordiv_i32(a, b).
struct FloorDiv : OpConversionPattern<arith::FloorDivSIOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::FloorDivSIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isInteger(32))
      return rewriter.notifyMatchFailure(op, "the seed's helper is for int");
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(op, op.getType(), "floordiv_i32",
                                                     adaptor.getOperands());
    return success();
  }
};

/// Whether `v` is `cmpi pred, x, 0`.
bool isCmpWithZero(Value v, arith::CmpIPredicate pred, Value x) {
  auto c = v.getDefiningOp<arith::CmpIOp>();
  return c && c.getPredicate() == pred && c.getLhs() == x && matchPattern(c.getRhs(), m_Zero());
}

/// Whether `v` is `op(a, b)` or `op(b, a)` with `match(a, b)` for one order.
template <typename OpTy> bool isCommutedPair(Value v, function_ref<bool(Value, Value)> match) {
  auto op = v.getDefiningOp<OpTy>();
  return op && (match(op.getLhs(), op.getRhs()) || match(op.getRhs(), op.getLhs()));
}

/// uop-linearize's floor modulo, `r = a % b; (r != 0 && ((r < 0) ^ (b <
/// 0))) ? r + b : r` (the seed's floormod_i32 body) -> floormod_i32(a, b).
struct FloorMod : OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::SelectOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value r = op.getFalseValue();
    auto rem = r.getDefiningOp<arith::RemSIOp>();
    if (!rem || !op.getType().isInteger(32))
      return rewriter.notifyMatchFailure(op, "not a floor modulo");
    Value b = rem.getRhs();
    bool sum = isCommutedPair<arith::AddIOp>(op.getTrueValue(),
                                             [&](Value x, Value y) { return x == r && y == b; });
    bool cond = isCommutedPair<arith::AndIOp>(op.getCondition(), [&](Value x, Value y) {
      return isCmpWithZero(x, arith::CmpIPredicate::ne, r) &&
             isCommutedPair<arith::XOrIOp>(y, [&](Value p, Value q) {
               return isCmpWithZero(p, arith::CmpIPredicate::slt, r) &&
                      isCmpWithZero(q, arith::CmpIPredicate::slt, b);
             });
    });
    if (!sum || !cond)
      return rewriter.notifyMatchFailure(op, "not a floor modulo");
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(
        op, op.getType(), "floormod_i32",
        ValueRange{rewriter.getRemappedValue(rem.getLhs()), rewriter.getRemappedValue(b)});
    return success();
  }
};

/// An index op C's operator on size_t is (unsigned, as the op).
template <typename ArithOp, typename COp> struct IndexBinary : OpConversionPattern<ArithOp> {
  using OpConversionPattern<ArithOp>::OpConversionPattern;
  LogicalResult matchAndRewrite(ArithOp op, typename ArithOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    if (!isa<IndexType>(op.getType()) || !type)
      return rewriter.notifyMatchFailure(op, "not an index op");
    rewriter.replaceOpWithNewOp<COp>(op, type, adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

/// arith.min*/max* (scalar integers) -> `a < b ? a : b` (`>` for max).
template <typename ArithOp, bool isMax, bool isSigned>
struct MinMax : OpConversionPattern<ArithOp> {
  using OpConversionPattern<ArithOp>::OpConversionPattern;
  LogicalResult matchAndRewrite(ArithOp op, typename ArithOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    Type orig = op.getType();
    if (!type ||
        !(isa<IndexType>(orig) || (isa<IntegerType>(orig) && orig.getIntOrFloatBitWidth() > 1)))
      return rewriter.notifyMatchFailure(op, "not a scalar integer");
    Location loc = op.getLoc();
    Value a = adaptor.getLhs(), b = adaptor.getRhs();
    // The compare's type: index is size_t (unsigned), an integer is signed.
    Type cmpType;
    if (isa<IndexType>(orig) && isSigned)
      cmpType = emitc::PtrDiffTType::get(op.getContext());
    else if (isa<IntegerType>(orig) && !isSigned)
      cmpType =
          IntegerType::get(op.getContext(), orig.getIntOrFloatBitWidth(), IntegerType::Unsigned);
    Value x = a, y = b;
    if (cmpType) {
      x = emitc::CastOp::create(rewriter, loc, cmpType, a);
      y = emitc::CastOp::create(rewriter, loc, cmpType, b);
    }
    Value cmp =
        emitc::CmpOp::create(rewriter, loc, rewriter.getI1Type(),
                             isMax ? emitc::CmpPredicate::gt : emitc::CmpPredicate::lt, x, y);
    rewriter.replaceOpWithNewOp<emitc::ConditionalOp>(op, type, cmp, a, b);
    return success();
  }
};

} // namespace

void mlir::uop::populateUopArithToEmitCPatterns(const CTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  // Above upstream's patterns for the same ops.
  patterns.add<ConstantToLiteral, OrderedCmpF, IndexCast, FloorDiv, FloorMod>(converter,
                                                                              patterns.getContext(),
                                                                              /*benefit=*/2);
  patterns.add<IndexBinary<arith::DivUIOp, emitc::DivOp>, IndexBinary<arith::RemUIOp, emitc::RemOp>,
               IndexBinary<arith::AndIOp, emitc::BitwiseAndOp>,
               IndexBinary<arith::OrIOp, emitc::BitwiseOrOp>,
               IndexBinary<arith::XOrIOp, emitc::BitwiseXorOp>, MinMax<arith::MinSIOp, false, true>,
               MinMax<arith::MaxSIOp, true, true>, MinMax<arith::MinUIOp, false, false>,
               MinMax<arith::MaxUIOp, true, false>>(converter, patterns.getContext());
}
