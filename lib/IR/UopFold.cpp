//===- UopFold.cpp - exec_alu semantics and the uop folders ----*- C++ -*-===//
//
// The seed's `exec_alu` and `truncate`, element by element, and the `fold()`
// hooks built on them: constant folding of every ALU op and cast on scalars
// and dense tensors, and the identities of the seed's `symbolic` list that
// return an existing value or a constant (x+0, x*1, x//1, max(x,x), ...).
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopFoldRules.h"
#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopSemantics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::uop;

//===----------------------------------------------------------------------===//
// Fold rule names and their observer
//===----------------------------------------------------------------------===//

static thread_local FoldRuleObserver *foldRuleObserver = nullptr;

FoldRuleObserver::~FoldRuleObserver() = default;

ScopedFoldRuleObserver::ScopedFoldRuleObserver(FoldRuleObserver *observer)
    : previous(foldRuleObserver) {
  foldRuleObserver = observer;
}
ScopedFoldRuleObserver::~ScopedFoldRuleObserver() { foldRuleObserver = previous; }

void mlir::uop::noteFoldRule(StringRef rule) {
  if (FoldRuleObserver *observer = foldRuleObserver)
    observer->notifyFoldRule(rule);
}

/// Constant folding by ALU kind (in AluKind order), then the identities.
static const StringRef foldRuleNames[] = {
    "fold: constant add",
    "fold: constant mul",
    "fold: constant max",
    "fold: constant cmplt",
    "fold: constant cmpne",
    "fold: constant floordiv",
    "fold: constant floormod",
    "fold: constant where",
    "fold: constant recip",
    "fold: constant exp2",
    "fold: constant log2",
    "fold: constant sqrt",
    "fold: constant sin",
    "fold: constant cast",
    "fold: constant to the right",
    "fold: x + 0 -> x",
    "fold: x + x*-1 -> 0",
    "fold: x * 1 -> x",
    "fold: x * 0 -> 0",
    "fold: max(x, x) -> x",
    "fold: x < x -> false",
    "fold: x != x -> false",
    "fold: b != false -> b",
    "fold: x // 1 -> x",
    "fold: x % 1 -> 0",
    "fold: where(c, x, x) -> x",
    "fold: where(constant, x, y)",
    "fold: where(z, where(z, x, _), y)",
    "fold: where(z, x, where(z, _, y))",
    "fold: cast to its own dtype",
    "fold: stack of constants",
    "fold: movement to its own type",
    "fold: movement of a splat",
    "fold: reshape of a dense constant",
};

ArrayRef<StringRef> mlir::uop::getFoldRuleNames() { return foldRuleNames; }

/// `result`, after telling the observer that `rule` gave it.
static OpFoldResult rule(StringRef name, OpFoldResult result) {
  noteFoldRule(name);
  return result;
}

//===----------------------------------------------------------------------===//
// exec_alu
//===----------------------------------------------------------------------===//

std::optional<AluKind> mlir::uop::getAluKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<AluKind>>(op)
      .Case<AddOp>([](auto) { return AluKind::Add; })
      .Case<MulOp>([](auto) { return AluKind::Mul; })
      .Case<MaxOp>([](auto) { return AluKind::Max; })
      .Case<CmpLtOp>([](auto) { return AluKind::CmpLt; })
      .Case<CmpNeOp>([](auto) { return AluKind::CmpNe; })
      .Case<FloorDivOp>([](auto) { return AluKind::FloorDiv; })
      .Case<FloorModOp>([](auto) { return AluKind::FloorMod; })
      .Case<WhereOp>([](auto) { return AluKind::Where; })
      .Case<RecipOp>([](auto) { return AluKind::Recip; })
      .Case<Exp2Op>([](auto) { return AluKind::Exp2; })
      .Case<Log2Op>([](auto) { return AluKind::Log2; })
      .Case<SqrtOp>([](auto) { return AluKind::Sqrt; })
      .Case<SinOp>([](auto) { return AluKind::Sin; })
      .Case<CastOp>([](auto) { return AluKind::Cast; })
      .Default([](Operation *) { return std::nullopt; });
}

int64_t mlir::uop::saturateToI32(double x) {
  if (std::isnan(x))
    return 0;
  if (x >= 2147483648.0)
    return INT32_MAX;
  if (x <= -2147483649.0)
    return INT32_MIN;
  return static_cast<int64_t>(std::trunc(x));
}

std::optional<Scalar> mlir::uop::truncate(Type dtype, Scalar v) {
  if (dtype.isInteger(1))
    return Scalar::integer(v.truthy());
  if (dtype.isInteger(32)) {
    if (!v.isFloat)
      return Scalar::integer(wrapI32(v.i));
    // Float to int truncates toward zero and saturates: NaN is 0, a value
    // past the i32 range (inf included) its nearest end. The one result
    // folding, the CPU, emulation and the GPU (PTX cvt.rzi.s32 does this
    // natively) all give (issue 32); C leaves it undefined, the seed's
    // folding wrapped modulo 2^32 while its C code gave INT_MIN.
    return Scalar::integer(saturateToI32(v.f));
  }
  double x = v.asDouble();
  if (dtype.isF32())
    return Scalar::real(std::isfinite(x) ? static_cast<double>(static_cast<float>(x)) : x);
  if (dtype.isF16()) {
    if (!std::isfinite(x))
      return Scalar::real(x);
    if (std::fabs(x) >= 65520.0)
      return std::nullopt;
    bool losesInfo;
    llvm::APFloat h(x);
    h.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return Scalar::real(h.convertToDouble());
  }
  return std::nullopt;
}

std::optional<Scalar> mlir::uop::execAlu(AluKind op, Type dtype, ArrayRef<Scalar> vals) {
  bool isFloat = isFloatDType(dtype);
  // Inputs first: round float operands to the dtype, as C rounds a literal.
  SmallVector<Scalar, 3> v(vals.begin(), vals.end());
  if (op != AluKind::Cast && isFloat) {
    for (size_t k = (op == AluKind::Where ? 1 : 0); k < v.size(); ++k) {
      std::optional<Scalar> t = truncate(dtype, v[k]);
      if (!t)
        return std::nullopt;
      v[k] = *t;
    }
  }
  Scalar r;
  switch (op) {
  case AluKind::Add:
    r = isFloat ? Scalar::real(v[0].f + v[1].f) : Scalar::integer(v[0].i + v[1].i);
    break;
  case AluKind::Mul:
    // inf * 0 is the seed's math.nan: a positive quiet NaN (x86 would make
    // its default NaN, whose sign bit is set).
    if (isFloat && (std::isinf(v[0].f) || std::isinf(v[1].f)) && (v[0].f == 0.0 || v[1].f == 0.0))
      r = Scalar::real(NAN);
    else
      r = isFloat ? Scalar::real(v[0].f * v[1].f) : Scalar::integer(v[0].i * v[1].i);
    break;
  case AluKind::Max: {
    // Python's max(a, b): b only if b > a, so max(NaN, 1) is NaN and
    // max(1, NaN) is 1.
    bool bGreater = isFloat ? v[1].f > v[0].f : v[1].i > v[0].i;
    r = bGreater ? v[1] : v[0];
    break;
  }
  case AluKind::CmpLt:
    return Scalar::integer(v[0].isFloat ? v[0].f < v[1].f : v[0].i < v[1].i);
  case AluKind::CmpNe:
    return Scalar::integer(v[0].isFloat ? v[0].f != v[1].f : v[0].i != v[1].i);
  case AluKind::FloorDiv:
    if (v[1].i == 0 || (dtype.isInteger(32) && v[0].i == INT32_MIN && v[1].i == -1))
      return std::nullopt; // C traps here: leave it to run time
    r = Scalar::integer(floorDiv(v[0].i, v[1].i));
    break;
  case AluKind::FloorMod:
    if (v[1].i == 0)
      return std::nullopt;
    r = Scalar::integer(floorMod(v[0].i, v[1].i));
    break;
  case AluKind::Where:
    r = v[0].truthy() ? v[1] : v[2];
    break;
  case AluKind::Recip:
    r = Scalar::real(v[0].f != 0.0 ? 1.0 / v[0].f : std::copysign(INFINITY, v[0].f));
    break;
  case AluKind::Exp2:
    // NaN < 1024 is false: the seed's exp2(NaN) is inf.
    r = Scalar::real(v[0].f < 1024.0 ? std::pow(2.0, v[0].f) : INFINITY);
    break;
  case AluKind::Log2:
    r = Scalar::real(v[0].f > 0.0 ? std::log2(v[0].f) : v[0].f == 0.0 ? -INFINITY : NAN);
    break;
  case AluKind::Sqrt:
    r = Scalar::real(v[0].f >= 0.0 ? std::sqrt(v[0].f) : NAN);
    break;
  case AluKind::Sin:
    r = Scalar::real(std::isfinite(v[0].f) ? std::sin(v[0].f) : NAN);
    break;
  case AluKind::Cast:
    if (dtype.isInteger(1))
      return Scalar::integer(v[0].truthy());
    if (dtype.isInteger(32))
      return truncate(dtype, v[0]); // trunc toward zero, saturating
    r = Scalar::real(v[0].asDouble());
    break;
  }
  return truncate(dtype, r);
}

//===----------------------------------------------------------------------===//
// Constants as elements
//===----------------------------------------------------------------------===//

static Scalar fromAPInt(const APInt &v) {
  return Scalar::integer(v.getBitWidth() == 1 ? (int64_t)v.getBoolValue() : v.getSExtValue());
}

Scalar mlir::uop::getElement(Attribute attr, int64_t i) {
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return fromAPInt(integer.getValue());
  if (auto real = dyn_cast<FloatAttr>(attr))
    return Scalar::real(real.getValueAsDouble());
  auto dense = cast<DenseIntOrFPElementsAttr>(attr);
  if (dense.isSplat())
    i = 0;
  if (isa<FloatType>(dense.getElementType()))
    return Scalar::real(dense.getValues<APFloat>()[i].convertToDouble());
  return fromAPInt(dense.getValues<APInt>()[i]);
}

std::optional<Scalar> mlir::uop::getSplatValue(Attribute attr) {
  if (isa_and_nonnull<IntegerAttr, FloatAttr>(attr))
    return getElement(attr, 0);
  if (auto dense = dyn_cast_or_null<DenseIntOrFPElementsAttr>(attr))
    if (dense.isSplat())
      return getElement(attr, 0);
  return std::nullopt;
}

/// The attribute of one element of `dtype`.
static TypedAttr scalarAttr(Type dtype, Scalar v) {
  if (dtype.isInteger(1))
    return BoolAttr::get(dtype.getContext(), v.truthy());
  if (auto intType = dyn_cast<IntegerType>(dtype))
    return IntegerAttr::get(intType, APInt(intType.getWidth(), v.i, /*isSigned=*/true));
  return FloatAttr::get(dtype, v.asDouble());
}

static APFloat toAPFloat(Type dtype, double x) {
  bool losesInfo;
  APFloat f(x);
  f.convert(cast<FloatType>(dtype).getFloatSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
  return f;
}

TypedAttr mlir::uop::makeAttr(Type type, ArrayRef<Scalar> values) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return scalarAttr(type, values.front());
  Type dtype = tensor.getElementType();
  if (values.size() == 1)
    return DenseElementsAttr::get(tensor, cast<Attribute>(scalarAttr(dtype, values.front())));
  if (auto intType = dyn_cast<IntegerType>(dtype)) {
    SmallVector<APInt> ints;
    ints.reserve(values.size());
    for (const Scalar &v : values)
      ints.push_back(intType.getWidth() == 1 ? APInt(1, v.truthy())
                                             : APInt(intType.getWidth(), v.i, true));
    return DenseElementsAttr::get(tensor, ints);
  }
  SmallVector<APFloat> floats;
  floats.reserve(values.size());
  for (const Scalar &v : values)
    floats.push_back(toAPFloat(dtype, v.asDouble()));
  return DenseElementsAttr::get(tensor, floats);
}

/// The number of elements of a value type (1 for a scalar).
static int64_t numElements(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.getNumElements();
  return 1;
}

static bool isSplatLike(Attribute attr) {
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return dense.isSplat();
  return true;
}

/// Unpacks a constant operand into one Scalar per element (one for a splat).
static SmallVector<Scalar> unpack(Attribute attr) {
  SmallVector<Scalar> out;
  auto dense = dyn_cast<DenseIntOrFPElementsAttr>(attr);
  if (!dense || dense.isSplat()) {
    out.push_back(getElement(attr, 0));
    return out;
  }
  out.reserve(dense.getNumElements());
  if (isa<FloatType>(dense.getElementType())) {
    for (const APFloat &f : dense.getValues<APFloat>())
      out.push_back(Scalar::real(f.convertToDouble()));
  } else {
    for (const APInt &v : dense.getValues<APInt>())
      out.push_back(fromAPInt(v));
  }
  return out;
}

SmallVector<Scalar> mlir::uop::getAllElements(Attribute attr, Type type) {
  SmallVector<Scalar> v = unpack(attr);
  int64_t n = numElements(type);
  if (v.size() == 1 && n != 1)
    v.assign(n, v.front());
  return v;
}

Attribute mlir::uop::foldElementwise(Operation *op, AluKind kind, ArrayRef<Attribute> operands) {
  if (operands.empty() || !llvm::all_of(operands, [](Attribute a) {
        return isa_and_nonnull<IntegerAttr, FloatAttr, DenseIntOrFPElementsAttr>(a);
      }))
    return {};
  Type resultType = op->getResult(0).getType();
  Type dtype = getDType(resultType);
  bool splat = llvm::all_of(operands, isSplatLike);
  int64_t n = splat ? 1 : numElements(resultType);
  SmallVector<SmallVector<Scalar>> in;
  for (Attribute a : operands)
    in.push_back(unpack(a));
  SmallVector<Scalar> out;
  out.reserve(n);
  SmallVector<Scalar, 3> vals(operands.size());
  for (int64_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < in.size(); ++k)
      vals[k] = in[k].size() == 1 ? in[k][0] : in[k][i];
    std::optional<Scalar> r = execAlu(kind, dtype, vals);
    if (!r)
      return {};
    out.push_back(*r);
  }
  noteFoldRule(foldRuleNames[static_cast<unsigned>(kind)]);
  return makeAttr(resultType, out);
}

//===----------------------------------------------------------------------===//
// Folders
//===----------------------------------------------------------------------===//

/// The value of a scalar or splat constant operand equal to `v` (Python's
/// `==`, so 0 matches 0, False, 0.0 and -0.0).
static bool isConstEqual(Attribute attr, double v) {
  std::optional<Scalar> s = getSplatValue(attr);
  return s && s->asDouble() == v;
}

/// A zero of `type` (scalar or splat).
static TypedAttr zeroOf(Type type) { return makeAttr(type, {Scalar::integer(0)}); }

/// Whether `v` is `x * -1` (or `-1 * x`) for an i32 `x`; returns x.
static Value matchNeg(Value v) {
  auto mul = v.getDefiningOp<MulOp>();
  if (!mul || !getDType(mul.getType()).isInteger(32))
    return {};
  // uop.const read directly (m_Constant asks the op's traits, then folds it).
  auto isMinusOne = [](Value c) {
    Attribute attr;
    if (auto op = c.getDefiningOp<ConstOp>())
      attr = op.getProperties().value;
    else if (!matchPattern(c, m_Constant(&attr)))
      return false;
    return isConstEqual(attr, -1);
  };
  if (isMinusOne(mul.getRhs()))
    return mul.getLhs();
  if (isMinusOne(mul.getLhs()))
    return mul.getRhs();
  return {};
}

/// matchNeg(v) == x, with the cheap test first: `v` is a product that has
/// `x` as an operand.
static bool isNegOf(Value v, Value x) {
  auto mul = v.getDefiningOp<MulOp>();
  if (!mul || (mul.getLhs() != x && mul.getRhs() != x))
    return false;
  return matchNeg(v) == x;
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (Attribute r = foldElementwise(*this, AluKind::Add, adaptor.getOperands()))
    return r;
  // x + 0 -> x (also for 0.0: not exact for x = -0.0, the seed accepts that)
  if (isConstEqual(adaptor.getRhs(), 0))
    return rule("fold: x + 0 -> x", getLhs());
  if (isConstEqual(adaptor.getLhs(), 0))
    return rule("fold: x + 0 -> x", getRhs());
  // x + x*-1 -> 0 (i32)
  if (getDType(getType()).isInteger(32) &&
      (isNegOf(getRhs(), getLhs()) || isNegOf(getLhs(), getRhs())))
    return rule("fold: x + x*-1 -> 0", zeroOf(getType()));
  return {};
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (Attribute r = foldElementwise(*this, AluKind::Mul, adaptor.getOperands()))
    return r;
  // x * 1 -> x
  if (isConstEqual(adaptor.getRhs(), 1))
    return rule("fold: x * 1 -> x", getLhs());
  if (isConstEqual(adaptor.getLhs(), 1))
    return rule("fold: x * 1 -> x", getRhs());
  // x * 0 -> 0 for bool and i32 (never for floats: inf * 0 is NaN)
  if (!isFloatDType(getDType(getType()))) {
    if (isConstEqual(adaptor.getRhs(), 0))
      return rule("fold: x * 0 -> 0", adaptor.getRhs());
    if (isConstEqual(adaptor.getLhs(), 0))
      return rule("fold: x * 0 -> 0", adaptor.getLhs());
  }
  return {};
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  if (Attribute r = foldElementwise(*this, AluKind::Max, adaptor.getOperands()))
    return r;
  if (getLhs() == getRhs())
    return rule("fold: max(x, x) -> x", getLhs());
  // A constant to the right (the seed's canonical form), for integers only:
  // for floats max is not commutative (NaN, signed zeros), and the seed's
  // swap of max(1.0, x) into max(x, 1.0) changes the value for x = nan
  // (found by uop-smt-check).
  if (adaptor.getLhs() && !adaptor.getRhs() && !isFloatDType(getDType(getType()))) {
    Value lhs = getLhs(), rhs = getRhs();
    getLhsMutable().assign(rhs);
    getRhsMutable().assign(lhs);
    return rule("fold: constant to the right", getResult());
  }
  return {};
}

/// cmplt(x, x) and cmpne(x, x) are false for an i32 x.
static OpFoldResult foldSelfCompare(Operation *op) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  if (lhs == rhs && getDType(lhs.getType()).isInteger(32))
    return rule(isa<CmpLtOp>(op) ? "fold: x < x -> false" : "fold: x != x -> false",
                zeroOf(op->getResult(0).getType()));
  return {};
}

OpFoldResult CmpLtOp::fold(FoldAdaptor adaptor) {
  if (Attribute r = foldElementwise(*this, AluKind::CmpLt, adaptor.getOperands()))
    return r;
  return foldSelfCompare(*this);
}

OpFoldResult CmpNeOp::fold(FoldAdaptor adaptor) {
  if (Attribute r = foldElementwise(*this, AluKind::CmpNe, adaptor.getOperands()))
    return r;
  // cmpne(x, false) -> x for a bool x
  if (getDType(getLhs().getType()).isInteger(1)) {
    if (isConstEqual(adaptor.getRhs(), 0))
      return rule("fold: b != false -> b", getLhs());
    if (isConstEqual(adaptor.getLhs(), 0))
      return rule("fold: b != false -> b", getRhs());
  }
  return foldSelfCompare(*this);
}

OpFoldResult FloorDivOp::fold(FoldAdaptor adaptor) {
  if (Attribute r = foldElementwise(*this, AluKind::FloorDiv, adaptor.getOperands()))
    return r;
  if (isConstEqual(adaptor.getRhs(), 1)) // x // 1 -> x
    return rule("fold: x // 1 -> x", getLhs());
  return {};
}

OpFoldResult FloorModOp::fold(FoldAdaptor adaptor) {
  if (Attribute r = foldElementwise(*this, AluKind::FloorMod, adaptor.getOperands()))
    return r;
  if (isConstEqual(adaptor.getRhs(), 1)) // x % 1 -> 0
    return rule("fold: x % 1 -> 0", zeroOf(getType()));
  return {};
}

OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  if (Attribute r = foldElementwise(*this, AluKind::Where, adaptor.getOperands()))
    return r;
  if (getA() == getB()) // where(c, x, x) -> x
    return rule("fold: where(c, x, x) -> x", getA());
  if (std::optional<Scalar> c = getSplatValue(adaptor.getCond())) // constant condition
    return rule("fold: where(constant, x, y)", c->truthy() ? getA() : getB());
  // where(z, where(z, x, _), y) -> where(z, x, y); likewise in the false arm.
  if (auto inner = getA().getDefiningOp<WhereOp>(); inner && inner.getCond() == getCond()) {
    getAMutable().assign(inner.getA());
    return rule("fold: where(z, where(z, x, _), y)", getResult());
  }
  if (auto inner = getB().getDefiningOp<WhereOp>(); inner && inner.getCond() == getCond()) {
    getBMutable().assign(inner.getB());
    return rule("fold: where(z, x, where(z, _, y))", getResult());
  }
  return {};
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getDType(getSrc().getType()) == getDtype()) // cast to its own dtype
    return rule("fold: cast to its own dtype", getSrc());
  return foldElementwise(*this, AluKind::Cast, adaptor.getOperands());
}

OpFoldResult RecipOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(*this, AluKind::Recip, adaptor.getOperands());
}
OpFoldResult Exp2Op::fold(FoldAdaptor adaptor) {
  return foldElementwise(*this, AluKind::Exp2, adaptor.getOperands());
}
OpFoldResult Log2Op::fold(FoldAdaptor adaptor) {
  return foldElementwise(*this, AluKind::Log2, adaptor.getOperands());
}
OpFoldResult SqrtOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(*this, AluKind::Sqrt, adaptor.getOperands());
}
OpFoldResult SinOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(*this, AluKind::Sin, adaptor.getOperands());
}

//===----------------------------------------------------------------------===//
// StackOp and movement ops
//===----------------------------------------------------------------------===//

/// A stack of constants is a dense constant.
OpFoldResult StackOp::fold(FoldAdaptor adaptor) {
  if (!llvm::all_of(adaptor.getSrcs(), [](Attribute a) {
        return isa_and_nonnull<IntegerAttr, FloatAttr, DenseIntOrFPElementsAttr>(a);
      }))
    return {};
  SmallVector<Scalar> out;
  int64_t inner = numElements(getSrcs().front().getType());
  out.reserve(inner * adaptor.getSrcs().size());
  for (Attribute a : adaptor.getSrcs()) {
    SmallVector<Scalar> v = unpack(a);
    for (int64_t i = 0; i < inner; ++i)
      out.push_back(v.size() == 1 ? v[0] : v[i]);
  }
  if (llvm::all_equal(out))
    out.resize(1);
  return rule("fold: stack of constants", makeAttr(getType(), out));
}

/// Movement of a scalar or splat constant is a splat of the result type.
static OpFoldResult foldSplatMovement(Operation *op, Attribute src) {
  Type type = op->getResult(0).getType();
  if (isa<MemRefType>(type))
    return {};
  std::optional<Scalar> v = getSplatValue(src);
  if (!v)
    return {};
  return rule("fold: movement of a splat", makeAttr(type, {*v}));
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return rule("fold: movement to its own type", getSrc());
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getSrc());
      dense && !dense.isSplat()) {
    if (auto tensor = dyn_cast<RankedTensorType>(getType()))
      return rule("fold: reshape of a dense constant", dense.reshape(tensor));
    return {};
  }
  return foldSplatMovement(*this, adaptor.getSrc());
}

OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return rule("fold: movement to its own type", getSrc());
  return foldSplatMovement(*this, adaptor.getSrc());
}

OpFoldResult PermuteOp::fold(FoldAdaptor adaptor) {
  if (llvm::equal(getPerm(), llvm::seq<int64_t>(0, getPerm().size())))
    return rule("fold: movement to its own type", getSrc());
  return foldSplatMovement(*this, adaptor.getSrc());
}

OpFoldResult ShrinkOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return rule("fold: movement to its own type", getSrc());
  return foldSplatMovement(*this, adaptor.getSrc());
}
