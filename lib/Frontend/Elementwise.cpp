//===- Elementwise.cpp - elementwise operations ------------------*- C++ -*-===//
//
// The seed's ALU ops on tensors: binary ops (broadcast together, promoted as
// tinygrad promotes), comparisons, where, casts, division with its rounding
// modes, mod, pow, the integer bit operations, the staging identities
// (detach, contiguous), and the operators that spell them. The unary math
// and the activations are in Math.cpp.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include <cmath>
#include <limits>

namespace muop = mlir::uop;

namespace uop {
using namespace mlir;
using namespace detail;

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

namespace {
enum class BinOp { Add, Mul, Max, CmpLt, CmpNe, IDiv, IMod };
}

static const char *binName(BinOp op) {
  switch (op) {
  case BinOp::Add:
    return "add";
  case BinOp::Mul:
    return "mul";
  case BinOp::Max:
    return "maximum";
  case BinOp::CmpLt:
    return "cmplt";
  case BinOp::CmpNe:
    return "cmpne";
  case BinOp::IDiv:
    return "floordiv";
  case BinOp::IMod:
    return "floormod";
  }
  return "?";
}

/// UOp(op, (a, b)) on two tensors of one dtype, broadcast (the seed's
/// _binop after _const).
static Tensor binarySame(BinOp op, const Tensor &a, const Tensor &b) {
  auto shape = broadcastShapes({a.shape(), b.shape()});
  if (!shape)
    return err(std::string(binName(op)) + ": " + llvm::toString(shape.takeError()));
  Tensor x = a.broadcastTo(*shape), y = b.broadcastTo(*shape);
  if (auto e = firstError({&x, &y}))
    return *e;
  GraphBuilder g(a.context());
  Value l = x.value(), r = y.value();
  Value v;
  switch (op) {
  case BinOp::Add:
    v = muop::AddOp::create(g.b, g.loc, l, r);
    break;
  case BinOp::Mul:
    v = muop::MulOp::create(g.b, g.loc, l, r);
    break;
  case BinOp::Max:
    v = muop::MaxOp::create(g.b, g.loc, l, r);
    break;
  case BinOp::CmpLt:
    v = muop::CmpLtOp::create(g.b, g.loc, l, r);
    break;
  case BinOp::CmpNe:
    v = muop::CmpNeOp::create(g.b, g.loc, l, r);
    break;
  case BinOp::IDiv:
    v = muop::FloorDivOp::create(g.b, g.loc, l, r);
    break;
  case BinOp::IMod:
    v = muop::FloorModOp::create(g.b, g.loc, l, r);
    break;
  }
  return g.finish(v, {sharedNode(x), sharedNode(y)});
}

/// Both tensors cast to their least upper dtype.
static std::pair<Tensor, Tensor> promoted(const Tensor &a, const Tensor &b) {
  DType d = promoteTypes(a.dtype(), b.dtype());
  return {a.cast(d), b.cast(d)};
}

/// A binary op of two tensors: promoted, broadcast.
static Tensor binary(BinOp op, const Tensor &a, const Tensor &b) {
  if (auto e = firstError({&a, &b}))
    return *e;
  auto [x, y] = promoted(a, b);
  if (auto e = firstError({&x, &y}))
    return *e;
  return binarySame(op, x, y);
}

/// self and a host scalar as two tensors of one dtype (tinygrad's
/// promotion of weak scalars).
static std::pair<Tensor, Tensor> withScalar(const Tensor &self, Scalar x) {
  DType d = scalarPromote(self.dtype(), x);
  Tensor s = self.cast(d);
  return {s, scalarOf(self, x, d)};
}

/// The seed's _binop with a Python scalar, promoted as tinygrad's.
static Tensor binaryScalar(BinOp op, const Tensor &self, Scalar x, bool reverse) {
  if (!self.ok())
    return self;
  auto [s, c] = withScalar(self, x);
  return reverse ? binarySame(op, c, s) : binarySame(op, s, c);
}

Tensor Tensor::add(const Tensor &x) const { return binary(BinOp::Add, *this, x); }
Tensor Tensor::add(Scalar x, bool reverse) const {
  return binaryScalar(BinOp::Add, *this, x, reverse);
}
Tensor Tensor::mul(const Tensor &x) const { return binary(BinOp::Mul, *this, x); }
Tensor Tensor::mul(Scalar x, bool reverse) const {
  return binaryScalar(BinOp::Mul, *this, x, reverse);
}
Tensor Tensor::neg() const {
  if (ok() && dtype() == DType::Bool)
    return logicalNot();
  return mul(-1);
}
Tensor Tensor::sub(const Tensor &x) const {
  if (auto e = firstError({this, &x}))
    return *e;
  auto [a, b] = promoted(*this, x);
  return binarySame(BinOp::Add, a, b.neg());
}
Tensor Tensor::sub(Scalar x) const {
  if (!ok())
    return *this;
  auto [s, c] = withScalar(*this, x);
  return s.add(c.neg());
}
Tensor Tensor::rsub(Scalar x) const {
  if (!ok())
    return *this;
  auto [s, c] = withScalar(*this, x);
  return c.add(s.neg());
}
Tensor Tensor::lt(const Tensor &x) const { return binary(BinOp::CmpLt, *this, x); }
Tensor Tensor::lt(Scalar x) const { return binaryScalar(BinOp::CmpLt, *this, x, false); }
Tensor Tensor::gt(const Tensor &x) const { return binary(BinOp::CmpLt, x, *this); }
Tensor Tensor::gt(Scalar x) const { return binaryScalar(BinOp::CmpLt, *this, x, true); }
// a >= b is !(a < b) only where neither is NaN: floats take (b < a) or
// (a == b), which is false with a NaN, as IEEE's (and PyTorch's) >=.
Tensor Tensor::ge(const Tensor &x) const {
  if (auto e = firstError({this, &x}))
    return *e;
  if (isFloat(promoteTypes(dtype(), x.dtype())))
    return gt(x).logicalOr(eq(x));
  return lt(x).logicalNot();
}
Tensor Tensor::ge(Scalar x) const {
  if (!ok())
    return *this;
  if (isFloat(scalarPromote(dtype(), x)))
    return gt(x).logicalOr(eq(x));
  return lt(x).logicalNot();
}
Tensor Tensor::le(const Tensor &x) const { return x.ge(*this); }
Tensor Tensor::le(Scalar x) const {
  if (!ok())
    return *this;
  if (isFloat(scalarPromote(dtype(), x)))
    return lt(x).logicalOr(eq(x));
  return gt(x).logicalNot();
}
Tensor Tensor::eq(const Tensor &x) const { return ne(x).logicalNot(); }
Tensor Tensor::eq(Scalar x) const { return ne(x).logicalNot(); }
Tensor Tensor::ne(const Tensor &x) const { return binary(BinOp::CmpNe, *this, x); }
Tensor Tensor::ne(Scalar x) const { return binaryScalar(BinOp::CmpNe, *this, x, false); }
// x == 0 for every dtype (a float's "not" is not x != 1); a bool's is the
// seed's cmpne(x, True).
Tensor Tensor::logicalNot() const {
  if (!ok())
    return *this;
  if (dtype() == DType::Bool)
    return binaryScalar(BinOp::CmpNe, *this, true, false);
  return binaryScalar(BinOp::CmpNe, *this, 0, false).logicalNot();
}
Tensor Tensor::logicalAnd(const Tensor &x) const {
  if (auto e = firstError({this, &x}))
    return *e;
  return binarySame(BinOp::Mul, toBool(), x.toBool());
}
Tensor Tensor::logicalOr(const Tensor &x) const {
  if (auto e = firstError({this, &x}))
    return *e;
  return binarySame(BinOp::Max, toBool(), x.toBool());
}
Tensor Tensor::logicalXor(const Tensor &x) const {
  if (auto e = firstError({this, &x}))
    return *e;
  return binarySame(BinOp::CmpNe, toBool(), x.toBool());
}

/// max(a, b) of two tensors of one dtype; for floats a NaN on either side
/// is the result (PyTorch's; uop.max is `b if b > a else a`, which keeps
/// only b's).
static Tensor maximumSame(const Tensor &a, const Tensor &b) {
  Tensor m = binarySame(BinOp::Max, a, b);
  if (!m.ok() || !isFloat(a.dtype()))
    return m;
  return a.isnan().where(a, m);
}
Tensor Tensor::maximum(const Tensor &x) const {
  if (auto e = firstError({this, &x}))
    return *e;
  auto [a, b] = promoted(*this, x);
  return maximumSame(a, b);
}
Tensor Tensor::maximum(Scalar x) const {
  if (!ok())
    return *this;
  auto [s, c] = withScalar(*this, x);
  return maximumSame(s, c);
}

/// min(a, b) of two tensors of one dtype: -max(-a, -b) for floats (exact,
/// and ties share the gradient as max's do), ~max(~a, ~b) for integers
/// (~ is a bijection that reverses the order, INT_MIN included), a and b
/// for bools.
static Tensor minimumSame(const Tensor &a, const Tensor &b) {
  switch (a.dtype()) {
  case DType::Bool:
    return a.logicalAnd(b);
  case DType::I32:
    return a.bitwiseNot().maximum(b.bitwiseNot()).bitwiseNot();
  default:
    return maximumSame(a.neg(), b.neg()).neg();
  }
}
Tensor Tensor::minimum(const Tensor &x) const {
  if (auto e = firstError({this, &x}))
    return *e;
  auto [a, b] = promoted(*this, x);
  return minimumSame(a, b);
}
Tensor Tensor::minimum(Scalar x) const {
  if (!ok())
    return *this;
  auto [s, c] = withScalar(*this, x);
  return minimumSame(s, c);
}

Tensor Tensor::clip(std::optional<Scalar> lo, std::optional<Scalar> hi) const {
  if (!ok())
    return *this;
  if (!lo && !hi)
    return err("clip: at least one of the bounds must be given");
  Tensor r = *this;
  if (lo)
    r = r.lt(*lo).where(*lo, r);
  if (hi)
    r = r.gt(*hi).where(*hi, r);
  return r;
}
Tensor Tensor::clip(const Tensor &lo, const Tensor &hi) const {
  if (auto e = firstError({this, &lo, &hi}))
    return *e;
  Tensor r = lt(lo).where(lo, *this);
  return r.gt(hi).where(hi, r);
}

Tensor Tensor::lerp(const Tensor &end, const Tensor &weight) const {
  return add(end.sub(*this).mul(weight));
}
Tensor Tensor::lerp(const Tensor &end, Scalar weight) const {
  return add(end.sub(*this).mul(weight));
}

Tensor Tensor::copysign(const Tensor &x) const {
  if (auto e = firstError({this, &x}))
    return *e;
  // PyTorch's result is a float; a -0.0 (or -NaN's reciprocal) counts as
  // negative.
  DType d = isFloat(dtype()) || isFloat(x.dtype()) ? promoteTypes(dtype(), x.dtype()) : DType::F32;
  Tensor a = cast(d), b = x.cast(d);
  Tensor neg = b.lt(0).logicalOr(b.reciprocal().lt(0));
  Tensor mag = a.abs(); // +0.0 for a zero: the sign is b's alone
  return neg.where(mag.neg(), mag);
}
Tensor Tensor::copysign(Scalar x) const {
  if (!ok())
    return *this;
  return copysign(scalarOf(*this, x, DType::F32));
}

Tensor Tensor::logaddexp(const Tensor &x) const {
  if (auto e = firstError({this, &x}))
    return *e;
  DType d = promoteTypes(dtype(), x.dtype());
  if (!isFloat(d))
    d = DType::F32;
  Tensor a = cast(d), b = x.cast(d);
  Tensor m = a.maximum(b);
  // Two infinities of one sign: log(exp(a) + exp(b)) is that infinity.
  Tensor ms = m.isinf().where(0.0, m);
  return a.sub(ms).exp().add(b.sub(ms).exp()).log().add(ms);
}
Tensor Tensor::logaddexp(Scalar x) const {
  if (!ok())
    return *this;
  DType d = scalarPromote(dtype(), x);
  if (!isFloat(d))
    d = DType::F32;
  return cast(d).logaddexp(scalarOf(*this, x, d));
}

//===----------------------------------------------------------------------===//
// Division, mod, pow
//===----------------------------------------------------------------------===//

static bool isInt(DType d) { return d == DType::I32 || d == DType::Bool; }

/// a / b of two tensors of one dtype with a rounding mode ("", "trunc",
/// "floor"), as tinygrad's div: integer division for integers with a mode,
/// else a * (1 / b) in float, then rounded.
static Tensor divSame(Tensor a, Tensor b, const std::string &mode) {
  if (mode != "" && mode != "trunc" && mode != "floor")
    return err("div: rounding mode \"" + mode + "\" is not one of \"trunc\", \"floor\"");
  if (isInt(a.dtype()) && mode != "") {
    a = a.cast(DType::I32), b = b.cast(DType::I32);
    Tensor q = binarySame(BinOp::IDiv, a, b);
    if (mode == "floor")
      return q;
    // Toward zero: one more than the floor when the signs differ and the
    // division is not exact.
    Tensor r = binarySame(BinOp::IMod, a, b);
    Tensor fix = r.ne(0).logicalAnd(a.lt(0).ne(b.lt(0)));
    return fix.where(q.add(1), q);
  }
  if (!isFloat(a.dtype()))
    a = a.cast(DType::F32), b = b.cast(DType::F32);
  Tensor d = binarySame(BinOp::Mul, a, b.reciprocal());
  if (mode == "")
    return d;
  // a * (1 / b) rounds twice: the quotient may be one off where a / b is
  // (near) an integer (-7 * (1 / 3.5) is -2.0000002). The remainder says
  // which way: it must be in [0, b) (floor; (b, 0] for a negative b) or
  // have a's sign and be smaller than b (trunc).
  Tensor q = mode == "floor" ? d.floor() : d.trunc();
  Tensor r = a.sub(q.mul(b)).detach();
  Tensor bd = b.detach();
  if (mode == "floor") {
    Tensor bpos = bd.gt(0);
    Tensor low = bpos.where(r.ge(bd), r.le(bd)), high = bpos.where(r.lt(0), r.gt(0));
    return low.where(q.add(1), high.where(q.sub(1), q));
  }
  Tensor ad = a.detach();
  Tensor step = ad.lt(0).ne(bd.lt(0)).where(-1.0, 1.0);
  Tensor sameSign = r.lt(0).eq(ad.lt(0));
  Tensor low = r.abs().ge(bd.abs()).logicalAnd(sameSign);
  Tensor high = r.ne(0).logicalAnd(sameSign.logicalNot());
  return low.where(q.add(step), high.where(q.sub(step), q));
}

Tensor Tensor::div(const Tensor &x, const std::string &mode) const {
  if (auto e = firstError({this, &x}))
    return *e;
  auto [a, b] = promoted(*this, x);
  return divSame(a, b, mode);
}
Tensor Tensor::div(Scalar x, const std::string &mode) const {
  if (!ok())
    return *this;
  auto [s, c] = withScalar(*this, x);
  return divSame(s, c, mode);
}
Tensor Tensor::rdiv(Scalar x, const std::string &mode) const {
  if (!ok())
    return *this;
  auto [s, c] = withScalar(*this, x);
  return divSame(c, s, mode);
}
Tensor Tensor::floorDiv(const Tensor &x) const { return div(x, "floor"); }
Tensor Tensor::floorDiv(Scalar x) const { return div(x, "floor"); }

/// a mod b (Python's %: the divisor's sign) of two tensors of one dtype.
static Tensor modSame(const Tensor &a, const Tensor &b) {
  if (isInt(a.dtype()))
    return binarySame(BinOp::IMod, a.cast(DType::I32), b.cast(DType::I32));
  return a.sub(divSame(a, b, "floor").mul(b));
}
Tensor Tensor::mod(const Tensor &x) const {
  if (auto e = firstError({this, &x}))
    return *e;
  auto [a, b] = promoted(*this, x);
  return modSame(a, b);
}
Tensor Tensor::mod(Scalar x) const {
  if (!ok())
    return *this;
  auto [s, c] = withScalar(*this, x);
  return modSame(s, c);
}
Tensor Tensor::rmod(Scalar x) const {
  if (!ok())
    return *this;
  auto [s, c] = withScalar(*this, x);
  return modSame(c, s);
}
Tensor Tensor::fmod(const Tensor &x) const {
  if (auto e = firstError({this, &x}))
    return *e;
  auto [a, b] = promoted(*this, x);
  return a.sub(divSame(a, b, "trunc").mul(b));
}
Tensor Tensor::fmod(Scalar x) const {
  if (!ok())
    return *this;
  auto [s, c] = withScalar(*this, x);
  return s.sub(divSame(s, c, "trunc").mul(c));
}

/// x ** n for an integer n >= 0 by squaring (exact for integers, wrapping as
/// PyTorch's int32; the gradient of floats is the product rule's).
static Tensor powInt(const Tensor &x, uint64_t n) {
  if (n == 0)
    return x.onesLike();
  Tensor result, sq = x;
  bool have = false;
  while (n) {
    if (n & 1) {
      result = have ? result.mul(sq) : sq;
      have = true;
    }
    n >>= 1;
    if (n)
      sq = sq.mul(sq);
  }
  return result;
}

/// A term of value 0 whose gradient with respect to x is `d` (any value:
/// finite, +-inf or NaN; `d` itself gets none): x - x.detach() times d
/// where d is finite, and where it is not, sqrt(x - x.detach()) at 0,
/// whose derivative 0.5 / 0 is +inf (negated for -inf; times 0 for NaN).
/// PyTorch's gradients at the edges of a function (0 ** -0.3) are such
/// values, which autodiff of a composition cannot give: adding this to the
/// function's value, detached, gives them (and no second derivative). An
/// infinite x gets no gradient.
static Tensor zeroWithGradient(const Tensor &x, const Tensor &d) {
  Tensor xs = x.isfinite().where(x, 0.0);
  Tensor u0 = xs.sub(xs.detach()); // value 0, gradient 1
  Tensor dd = d.detach();
  Tensor finite = dd.isfinite();
  Tensor part = u0.mul(finite.where(dd, 0.0));
  Tensor s = finite.where(1.0, u0).sqrt(); // 0 where d is not finite
  Tensor pos = dd.eq(INFINITY), neg = dd.eq(-INFINITY), nan = dd.isnan();
  return part.add(pos.where(s, 0.0)).sub(neg.where(s, 0.0)).add(nan.where(s.mul(0.0), 0.0));
}

/// The value of base ** e of two float tensors of one shape and dtype, with
/// PyTorch's values at the edges (tinygrad's decomposition of POW):
/// |base| ** e as exp2(e log2 |base|), negated for a negative base and an
/// odd integer e, NaN for a negative base and a non-integer e (the -inf
/// base excepted); 0 ** e is 0, 1 or inf; x ** 0 is 1.
static Tensor powValue(const Tensor &base, const Tensor &e) {
  Tensor ab = base.abs();
  Tensor zero = ab.eq(0);
  Tensor mag = e.mul(zero.where(1.0, ab).log2()).exp2();
  Tensor isInteger = e.eq(e.trunc());
  Tensor half = e.mul(0.5);
  Tensor odd = isInteger.logicalAnd(half.ne(half.trunc()));
  Tensor negBase = isInteger.where(odd.where(mag.neg(), mag),
                                   base.eq(-INFINITY).where(mag, std::nan("")));
  Tensor r = base.lt(0).where(negBase, mag);
  Tensor atZero = e.gt(0).where(0.0, e.eq(0).where(1.0, INFINITY));
  r = zero.where(atZero.cast(r.dtype()), r);
  return e.eq(0).where(1.0, r);
}

/// base ** e (float tensors of one shape and dtype) with PyTorch's
/// gradients, everywhere: e * base ** (e - 1) (0 where e is 0) for base,
/// base ** e * log(base) (0 where base is 0 and e >= 0) for e, by
/// zeroWithGradient terms on the detached value (a composition's gradient
/// is NaN or 0 at 0 ** e, at an infinite base, and ln|base| for a negative
/// one). `withExponent` false: e is a constant (no term for it).
static Tensor powFloat(const Tensor &base, const Tensor &e, bool withExponent = true) {
  Tensor b = base.detach(), x = e.detach();
  Tensor r = powValue(b, x);
  Tensor db = x.eq(0).where(0.0, x.mul(powValue(b, x.sub(1))));
  Tensor out = r.add(zeroWithGradient(base, db));
  if (!withExponent)
    return out;
  Tensor de = b.eq(0).logicalAnd(x.ge(0)).where(0.0, r.mul(b.log()));
  return out.add(zeroWithGradient(e, de));
}

/// self ** x of two tensors of one dtype.
static Tensor powSame(const Tensor &a, const Tensor &b) {
  if (isInt(a.dtype())) {
    // Integer ** integer tensor: by squaring over the exponent's bits
    // (negative exponents give 0 unless the base is 1 or -1, as PyTorch's).
    Tensor x = a.cast(DType::I32), n = b.cast(DType::I32);
    Tensor r = x.onesLike(), sq = x;
    for (int k = 0; k < 31; ++k) {
      Tensor bit = n.rshift(k).mod(2).ne(0);
      r = bit.where(r.mul(sq), r);
      sq = sq.mul(sq);
    }
    Tensor negative = x.eq(1).where(1, x.eq(-1).where(n.mod(2).eq(0).where(1, -1), 0));
    return n.lt(0).where(negative, r);
  }
  auto shape = broadcastShapes({a.shape(), b.shape()});
  if (!shape)
    return err("pow: " + llvm::toString(shape.takeError()));
  return powFloat(a.broadcastTo(*shape), b.broadcastTo(*shape));
}

Tensor Tensor::pow(const Tensor &x) const {
  if (auto e = firstError({this, &x}))
    return *e;
  auto [a, b] = promoted(*this, x);
  return powSame(a, b);
}
Tensor Tensor::pow(Scalar x) const {
  if (!ok())
    return *this;
  double c = x.value;
  bool integral = std::trunc(c) == c && std::fabs(c) <= 64;
  if (isInt(dtype()) && !x.isFloat()) {
    if (c < 0)
      return err("pow: an integer tensor to a negative integer power (" +
                 std::to_string(static_cast<int64_t>(c)) + "); make the base a float");
    if (c > 1e9)
      return err("pow: exponent " + std::to_string(c) + " is too large");
    return powInt(cast(DType::I32), static_cast<uint64_t>(c));
  }
  Tensor s = cast(scalarPromote(dtype(), x));
  if (integral) {
    // Small integer exponents by multiplication: exact signs, and the
    // product rule's gradient (0 at 0 for c >= 2).
    if (c >= 0)
      return powInt(s, static_cast<uint64_t>(c));
    return powInt(s, static_cast<uint64_t>(-c)).reciprocal();
  }
  if (c == 0.5)
    return s.sqrt();
  if (c == -0.5)
    return s.rsqrt();
  return powFloat(s, scalarOf(s, x, s.dtype()).expand(s.shape()), /*withExponent=*/false);
}
Tensor Tensor::rpow(Scalar x) const {
  if (!ok())
    return *this;
  DType d = scalarPromote(dtype(), x);
  if (isInt(d))
    return scalarOf(*this, x, d).pow(*this);
  Tensor s = cast(d);
  if (x.value == 1)
    return s.onesLike();
  // c ** x = exp2(x log2 c) for c > 0: the gradient c**x ln c.
  if (x.value > 0)
    return s.mul(std::log2(x.value)).exp2();
  return scalarOf(s, x, d).pow(s);
}

//===----------------------------------------------------------------------===//
// Integer bit operations
//===----------------------------------------------------------------------===//

/// 2^0 .. 2^30 as i32 data (the place values of bits 0..30).
static Tensor placeValues(TensorContext &ctx) {
  std::vector<int32_t> p(31);
  for (int k = 0; k < 31; ++k)
    p[k] = int32_t(1) << k;
  return constantInts(ctx, p, {31});
}

/// Bits 0..30 of an i32 tensor as a new last axis of 0/1 (i32): the floor
/// division by 2^k is the arithmetic shift, so the two's complement bits of
/// a negative value come out too. Bit 31 is the sign.
static Tensor lowBits(const Tensor &x, const Tensor &places) {
  Tensor q = binary(BinOp::IDiv, x.unsqueeze(-1), places);
  return binarySame(BinOp::IMod, q, scalarOf(q, 2, DType::I32));
}

namespace {
enum class BitOp { And, Or, Xor };
}

/// a op b bit by bit of two i32 tensors: combine bits 0..30, weight them by
/// their place values and sum (wrapping), then bit 31 as INT_MIN.
static Tensor bitwiseI32(BitOp op, const Tensor &a, const Tensor &b) {
  auto shape = broadcastShapes({a.shape(), b.shape()});
  if (!shape)
    return err("bitwise: " + llvm::toString(shape.takeError()));
  Tensor x = a.broadcastTo(*shape), y = b.broadcastTo(*shape);
  Tensor places = placeValues(*a.context());
  Tensor bx = lowBits(x, places), by = lowBits(y, places);
  Tensor bits, sign;
  Tensor sx = x.lt(0), sy = y.lt(0);
  switch (op) {
  case BitOp::And:
    bits = bx.mul(by), sign = sx.logicalAnd(sy);
    break;
  case BitOp::Or:
    bits = bx.maximum(by), sign = sx.logicalOr(sy);
    break;
  case BitOp::Xor:
    bits = bx.ne(by).cast(DType::I32), sign = sx.ne(sy);
    break;
  }
  Tensor low = bits.mul(places).sum(-1);
  return sign.where(low.add(std::numeric_limits<int32_t>::min()), low);
}

static Tensor bitwise(BitOp op, const Tensor &a, const Tensor &b) {
  if (auto e = firstError({&a, &b}))
    return *e;
  static const char *names[] = {"bitwiseAnd", "bitwiseOr", "bitwiseXor"};
  DType d = promoteTypes(a.dtype(), b.dtype());
  if (isFloat(d))
    return err(std::string(names[static_cast<int>(op)]) + ": needs integer or bool tensors, got " +
               rt::dtypeName(a.dtype()) + " and " + rt::dtypeName(b.dtype()));
  if (d == DType::Bool) {
    switch (op) {
    case BitOp::And:
      return a.logicalAnd(b);
    case BitOp::Or:
      return a.logicalOr(b);
    case BitOp::Xor:
      return a.logicalXor(b);
    }
  }
  return bitwiseI32(op, a.cast(d), b.cast(d));
}

/// The scalar operand of a bit operation as a tensor (an int with a bool
/// tensor is i32, a float is an error).
static Tensor bitScalar(const Tensor &self, Scalar x, const char *what) {
  if (x.isFloat())
    return err(std::string(what) + ": needs an integer or bool operand, got " +
               std::to_string(x.value));
  return scalarOf(self, x, scalarPromote(self.dtype(), x));
}

Tensor Tensor::bitwiseAnd(const Tensor &x) const { return bitwise(BitOp::And, *this, x); }
Tensor Tensor::bitwiseAnd(Scalar x) const {
  return ok() ? bitwise(BitOp::And, *this, bitScalar(*this, x, "bitwiseAnd")) : *this;
}
Tensor Tensor::bitwiseOr(const Tensor &x) const { return bitwise(BitOp::Or, *this, x); }
Tensor Tensor::bitwiseOr(Scalar x) const {
  return ok() ? bitwise(BitOp::Or, *this, bitScalar(*this, x, "bitwiseOr")) : *this;
}
Tensor Tensor::bitwiseXor(const Tensor &x) const {
  // x ^ -1 is ~x: one op instead of the bits.
  return bitwise(BitOp::Xor, *this, x);
}
Tensor Tensor::bitwiseXor(Scalar x) const {
  if (!ok())
    return *this;
  if (!x.isFloat() && x.value == -1 && dtype() == DType::I32)
    return bitwiseNot();
  return bitwise(BitOp::Xor, *this, bitScalar(*this, x, "bitwiseXor"));
}
Tensor Tensor::bitwiseNot() const {
  if (!ok())
    return *this;
  if (dtype() == DType::Bool)
    return logicalNot();
  if (dtype() != DType::I32)
    return err(std::string("bitwiseNot: needs an integer or bool tensor, got ") +
               rt::dtypeName(dtype()));
  // ~x = -x - 1, wrapping (~INT_MIN = INT_MAX).
  return neg().add(-1);
}

/// 2^n of an i32 tensor n in [0, 31] (2^31 is INT_MIN; 0 outside).
static Tensor pow2(const Tensor &n) {
  std::vector<int32_t> p(32);
  for (int k = 0; k < 32; ++k)
    p[k] = static_cast<int32_t>(uint32_t(1) << k);
  Tensor table = constantInts(*n.context(), p, {32});
  Tensor ks = Tensor::arange(32, *n.context());
  return n.unsqueeze(-1).eq(ks).where(table, 0).sum(-1);
}

/// The i32 operand of a shift (a bool is 0/1).
static Tensor shiftOperand(const Tensor &x, const char *what) {
  if (isFloat(x.dtype()))
    return err(std::string(what) + ": needs an integer tensor, got " + rt::dtypeName(x.dtype()));
  return x.cast(DType::I32);
}

Tensor Tensor::lshift(const Tensor &x) const {
  if (auto e = firstError({this, &x}))
    return *e;
  Tensor a = shiftOperand(*this, "lshift"), n = shiftOperand(x, "lshift");
  if (auto e = firstError({&a, &n}))
    return *e;
  return a.mul(pow2(n));
}
Tensor Tensor::lshift(Scalar x) const {
  if (!ok())
    return *this;
  Tensor a = shiftOperand(*this, "lshift");
  if (!a.ok() || x.isFloat())
    return a.ok() ? err("lshift: needs an integer shift") : a;
  int64_t n = static_cast<int64_t>(x.value);
  if (n < 0 || n >= 32)
    return a.zerosLike();
  return a.mul(static_cast<int32_t>(uint32_t(1) << n));
}
Tensor Tensor::rshift(const Tensor &x) const {
  if (auto e = firstError({this, &x}))
    return *e;
  Tensor a = shiftOperand(*this, "rshift"), n = shiftOperand(x, "rshift");
  if (auto e = firstError({&a, &n}))
    return *e;
  Tensor big = n.ge(31).logicalOr(n.lt(0));
  Tensor q = binary(BinOp::IDiv, a, big.where(1, pow2(n)));
  return big.where(a.lt(0).where(-1, 0), q);
}
Tensor Tensor::rshift(Scalar x) const {
  if (!ok())
    return *this;
  Tensor a = shiftOperand(*this, "rshift");
  if (!a.ok() || x.isFloat())
    return a.ok() ? err("rshift: needs an integer shift") : a;
  int64_t n = static_cast<int64_t>(x.value);
  if (n == 0)
    return a;
  if (n < 0 || n >= 31)
    return a.lt(0).where(-1, 0);
  return binaryScalar(BinOp::IDiv, a, int32_t(1) << n, false);
}

//===----------------------------------------------------------------------===//
// Ternary
//===----------------------------------------------------------------------===//

Tensor Tensor::where(const Tensor &a, const Tensor &b) const {
  if (auto e = firstError({this, &a, &b}))
    return *e;
  if (dtype() != DType::Bool)
    return err(std::string("where: the condition must be bool, got ") + rt::dtypeName(dtype()));
  auto [x0, y0] = promoted(a, b);
  const Tensor &cond = *this;
  auto shape = broadcastShapes({this->shape(), a.shape(), b.shape()});
  if (!shape)
    return err("where: " + llvm::toString(shape.takeError()));
  Tensor c = cond.broadcastTo(*shape), x = x0.broadcastTo(*shape), y = y0.broadcastTo(*shape);
  if (auto e = firstError({&c, &x, &y}))
    return *e;
  GraphBuilder g(context());
  Value v = muop::WhereOp::create(g.b, g.loc, c.value(), x.value(), y.value());
  return g.finish(v, {sharedNode(c), sharedNode(x), sharedNode(y)});
}
Tensor Tensor::where(const Tensor &a, Scalar b) const {
  if (auto e = firstError({this, &a}))
    return *e;
  DType d = scalarPromote(a.dtype(), b);
  return where(a.cast(d), scalarOf(a, b, d));
}
Tensor Tensor::where(Scalar a, const Tensor &b) const {
  if (auto e = firstError({this, &b}))
    return *e;
  DType d = scalarPromote(b.dtype(), a);
  return where(scalarOf(b, a, d), b.cast(d));
}
Tensor Tensor::where(Scalar a, Scalar b) const {
  if (!ok())
    return *this;
  DType d = scalarsDType(a, b);
  return where(scalarOf(*this, a, d), scalarOf(*this, b, d));
}
Tensor Tensor::maskedFill(const Tensor &mask, const Tensor &value) const {
  if (auto e = firstError({this, &mask, &value}))
    return *e;
  return mask.where(value.cast(dtype()), *this);
}
Tensor Tensor::maskedFill(const Tensor &mask, Scalar value) const {
  if (auto e = firstError({this, &mask}))
    return *e;
  return mask.where(scalarOf(*this, value, dtype()), *this);
}

//===----------------------------------------------------------------------===//
// Casts and tests
//===----------------------------------------------------------------------===//

Tensor Tensor::cast(DType d) const {
  if (!ok() || d == dtype())
    return *this;
  GraphBuilder g(context());
  Value v = muop::CastOp::create(g.b, g.loc, value(),
                                 TypeAttr::get(mlirDType(context()->mlirContext(), d)));
  return g.finish(v, {sharedNode(*this)});
}

bool Tensor::isFloatingPoint() const { return ok() && isFloat(dtype()); }

Tensor Tensor::isnan() const { return ne(*this); }
Tensor Tensor::isinf(bool detectPositive, bool detectNegative) const {
  if (!ok())
    return *this;
  if (!isFloat(dtype()) || (!detectPositive && !detectNegative))
    return fullLike(false, DType::Bool);
  Tensor pos = eq(INFINITY), neg = eq(-INFINITY);
  if (detectPositive && detectNegative)
    return pos.logicalOr(neg);
  return detectPositive ? pos : neg;
}
Tensor Tensor::isfinite() const { return isinf().logicalOr(isnan()).logicalNot(); }

Tensor Tensor::isclose(const Tensor &x, double rtol, double atol, bool equalNan) const {
  if (auto e = firstError({this, &x}))
    return *e;
  Tensor close = isfinite().logicalAnd(x.isfinite()).logicalAnd(sub(x).abs().le(x.abs().mul(rtol).add(atol)));
  Tensor inf = isinf().logicalOr(x.isinf()).logicalAnd(eq(x));
  Tensor r = close.logicalOr(inf);
  if (equalNan)
    r = r.logicalOr(isnan().logicalAnd(x.isnan()));
  return r;
}
Tensor Tensor::isclose(Scalar x, double rtol, double atol, bool equalNan) const {
  if (!ok())
    return *this;
  return isclose(scalarOf(*this, x, scalarPromote(dtype(), x)), rtol, atol, equalNan);
}
Tensor Tensor::allclose(const Tensor &x, double rtol, double atol, bool equalNan) const {
  return isclose(x, rtol, atol, equalNan).all();
}

//===----------------------------------------------------------------------===//
// Staging: identities that mark the graph (uop.stage)
//===----------------------------------------------------------------------===//

static Tensor stage(const Tensor &x, bool detach) {
  if (!x.ok())
    return x;
  if (x.numel() == 0)
    return x;
  GraphBuilder g(x.context());
  Value v = muop::StageOp::create(g.b, g.loc, x.value(), detach ? g.b.getUnitAttr() : UnitAttr());
  return g.finish(v, {sharedNode(x)});
}
Tensor Tensor::detach() const { return stage(*this, true); }
Tensor Tensor::contiguous() const { return stage(*this, false); }

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

Tensor operator+(const Tensor &a, const Tensor &b) { return a.add(b); }
Tensor operator+(const Tensor &a, Scalar b) { return a.add(b); }
Tensor operator+(Scalar a, const Tensor &b) { return b.add(a, true); }
Tensor operator-(const Tensor &a, const Tensor &b) { return a.sub(b); }
Tensor operator-(const Tensor &a, Scalar b) { return a.sub(b); }
Tensor operator-(Scalar a, const Tensor &b) { return b.rsub(a); }
Tensor operator*(const Tensor &a, const Tensor &b) { return a.mul(b); }
Tensor operator*(const Tensor &a, Scalar b) { return a.mul(b); }
Tensor operator*(Scalar a, const Tensor &b) { return b.mul(a, true); }
Tensor operator/(const Tensor &a, const Tensor &b) { return a.div(b); }
Tensor operator/(const Tensor &a, Scalar b) { return a.div(b); }
Tensor operator/(Scalar a, const Tensor &b) { return b.rdiv(a); }
Tensor operator-(const Tensor &a) { return a.neg(); }
Tensor operator<(const Tensor &a, const Tensor &b) { return a.lt(b); }
Tensor operator<(const Tensor &a, Scalar b) { return a.lt(b); }
Tensor operator<(Scalar a, const Tensor &b) { return b.gt(a); }
Tensor operator>(const Tensor &a, const Tensor &b) { return a.gt(b); }
Tensor operator>(const Tensor &a, Scalar b) { return a.gt(b); }
Tensor operator>(Scalar a, const Tensor &b) { return b.lt(a); }
Tensor operator<=(const Tensor &a, const Tensor &b) { return a.le(b); }
Tensor operator<=(const Tensor &a, Scalar b) { return a.le(b); }
Tensor operator>=(const Tensor &a, const Tensor &b) { return a.ge(b); }
Tensor operator>=(const Tensor &a, Scalar b) { return a.ge(b); }
Tensor operator==(const Tensor &a, const Tensor &b) { return a.eq(b); }
Tensor operator==(const Tensor &a, Scalar b) { return a.eq(b); }
Tensor operator!=(const Tensor &a, const Tensor &b) { return a.ne(b); }
Tensor operator!=(const Tensor &a, Scalar b) { return a.ne(b); }
Tensor operator!(const Tensor &a) { return a.logicalNot(); }
Tensor operator%(const Tensor &a, const Tensor &b) { return a.mod(b); }
Tensor operator%(const Tensor &a, Scalar b) { return a.mod(b); }
Tensor operator%(Scalar a, const Tensor &b) { return b.rmod(a); }
Tensor operator&(const Tensor &a, const Tensor &b) { return a.bitwiseAnd(b); }
Tensor operator&(const Tensor &a, Scalar b) { return a.bitwiseAnd(b); }
Tensor operator&(Scalar a, const Tensor &b) { return b.bitwiseAnd(a); }
Tensor operator|(const Tensor &a, const Tensor &b) { return a.bitwiseOr(b); }
Tensor operator|(const Tensor &a, Scalar b) { return a.bitwiseOr(b); }
Tensor operator|(Scalar a, const Tensor &b) { return b.bitwiseOr(a); }
Tensor operator^(const Tensor &a, const Tensor &b) { return a.bitwiseXor(b); }
Tensor operator^(const Tensor &a, Scalar b) { return a.bitwiseXor(b); }
Tensor operator^(Scalar a, const Tensor &b) { return b.bitwiseXor(a); }
Tensor operator~(const Tensor &a) { return a.bitwiseNot(); }
Tensor operator<<(const Tensor &a, const Tensor &b) { return a.lshift(b); }
Tensor operator<<(const Tensor &a, Scalar b) { return a.lshift(b); }
Tensor operator>>(const Tensor &a, const Tensor &b) { return a.rshift(b); }
Tensor operator>>(const Tensor &a, Scalar b) { return a.rshift(b); }

} // namespace uop
