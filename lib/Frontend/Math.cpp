//===- Math.cpp - unary math and activations ---------------------*- C++ -*-===//
//
// The unary float ops (recip, exp2, log2, sqrt, sin) and what is composed
// from them: exp, log, the rounding functions, trig and hyperbolic functions
// and their inverses, erf, and the activation family. Compositions are
// written so that their gradients, which autodiff derives op by op, stay
// finite where the function is flat: a branch of a where that the where
// does not take computes on a safe input, so it differentiates to 0 and not
// to 0 * inf.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include <cmath>

namespace muop = mlir::uop;

namespace uop {
using namespace mlir;
using namespace detail;

//===----------------------------------------------------------------------===//
// The primitive unary ops
//===----------------------------------------------------------------------===//

namespace {
enum class UnOp { Recip, Exp2, Log2, Sqrt, Sin };
}

/// A float tensor for a float function: integers and bools become f32 (as
/// PyTorch's `exp` of an int tensor is a float).
static Tensor floated(const Tensor &x) { return x.ok() && !isFloat(x.dtype()) ? x.toFloat() : x; }

static Tensor unary(UnOp op, const Tensor &x) {
  static const char *names[] = {"reciprocal", "exp2", "log2", "sqrt", "sin"};
  if (!x.ok())
    return x;
  if (!isFloat(x.dtype()))
    return err(std::string(names[static_cast<int>(op)]) + " needs a float tensor, got " +
               rt::dtypeName(x.dtype()));
  if (x.numel() == 0)
    return x;
  GraphBuilder g(x.context());
  Value s = x.value(), v;
  switch (op) {
  case UnOp::Recip:
    v = muop::RecipOp::create(g.b, g.loc, s);
    break;
  case UnOp::Exp2:
    v = muop::Exp2Op::create(g.b, g.loc, s);
    break;
  case UnOp::Log2:
    v = muop::Log2Op::create(g.b, g.loc, s);
    break;
  case UnOp::Sqrt:
    v = muop::SqrtOp::create(g.b, g.loc, s);
    break;
  case UnOp::Sin:
    v = muop::SinOp::create(g.b, g.loc, s);
    break;
  }
  return g.finish(v, {sharedNode(x)});
}

static const double kLog2E = 1 / std::log(2.0), kLn2 = std::log(2.0);

Tensor Tensor::reciprocal() const { return unary(UnOp::Recip, floated(*this)); }
Tensor Tensor::exp2() const { return unary(UnOp::Exp2, floated(*this)); }
Tensor Tensor::log2() const { return unary(UnOp::Log2, floated(*this)); }
Tensor Tensor::exp() const { return floated(*this).mul(kLog2E).exp2(); }
Tensor Tensor::log() const { return log2().mul(kLn2); }
Tensor Tensor::log10() const { return log2().mul(std::log10(2.0)); }
Tensor Tensor::sqrt() const { return unary(UnOp::Sqrt, floated(*this)); }
Tensor Tensor::rsqrt() const { return sqrt().reciprocal(); }
Tensor Tensor::sin() const { return unary(UnOp::Sin, floated(*this)); }
Tensor Tensor::square() const { return mul(*this); }
// Integers: max(x, -x) (INT_MIN stays, as PyTorch's). Floats: -x below 0,
// x above, and x * x at a zero or NaN: +0.0 for -0.0 (max(-0.0, 0.0) is
// -0.0), NaN kept, and the gradient 0 at 0 (PyTorch's).
Tensor Tensor::abs() const {
  if (!ok() || dtype() == DType::Bool)
    return *this;
  if (!isFloat(dtype()))
    return maximum(neg());
  return lt(0).where(neg(), gt(0).where(*this, mul(*this)));
}
Tensor Tensor::sign() const {
  if (!ok())
    return *this;
  if (dtype() == DType::Bool)
    return *this;
  // x * 0 keeps a NaN (and the sign of a zero); the gradient is 0.
  return gt(0).where(1, lt(0).where(-1, mul(0)));
}

//===----------------------------------------------------------------------===//
// Rounding
//===----------------------------------------------------------------------===//

/// Floats at or above this magnitude are integers already (2^23 for f32,
/// 2^10 for f16).
static double integralFrom(DType d) { return d == DType::F16 ? 1024.0 : 8388608.0; }

Tensor Tensor::trunc() const {
  if (!ok() || !isFloat(dtype()))
    return *this;
  // Through i32 (C truncation) where that is exact, the value itself where
  // it is already an integer (or inf, NaN). No gradient, as PyTorch's.
  Tensor small = abs().lt(integralFrom(dtype()));
  Tensor t = small.where(*this, 0.0).cast(DType::I32).cast(dtype());
  return small.where(t, detach());
}
Tensor Tensor::floor() const {
  if (!ok() || !isFloat(dtype()))
    return *this;
  Tensor t = trunc();
  return lt(t).where(t.sub(1), t);
}
Tensor Tensor::ceil() const {
  if (!ok() || !isFloat(dtype()))
    return *this;
  Tensor t = trunc();
  return gt(t).where(t.add(1), t);
}
Tensor Tensor::round() const {
  if (!ok() || !isFloat(dtype()))
    return *this;
  // To nearest, ties to even: the floor f and the fraction x - f (exact
  // below 2^23).
  Tensor f = floor();
  Tensor frac = sub(f);
  Tensor half = f.mul(0.5);
  Tensor even = half.eq(half.trunc());
  Tensor up = frac.gt(0.5).logicalOr(frac.eq(0.5).logicalAnd(even.logicalNot()));
  return up.where(f.add(1), f);
}

//===----------------------------------------------------------------------===//
// Trigonometry
//===----------------------------------------------------------------------===//

/// f(x) for x >= 0 and -f(-x) below, each on a safe input (an odd function
/// from its positive half).
template <typename F> static Tensor oddExtension(const Tensor &x, F f) {
  Tensor negative = x.lt(0);
  Tensor pos = negative.where(0.0, x), negArg = negative.where(x.neg(), 0.0);
  return negative.where(f(negArg).neg(), f(pos));
}

/// c0 + c1 z + c2 z^2 + ... (Horner).
static Tensor poly(const Tensor &z, std::initializer_list<double> coeffs) {
  std::vector<double> c(coeffs);
  Tensor r = z.mul(c.back());
  for (size_t i = c.size() - 1; i-- > 1;)
    r = r.add(c[i]).mul(z);
  return r.add(c[0]);
}

// cos(x) = 1 - 2 sin^2(x / 2): x / 2 is exact, so cos is as exact as sin at
// every argument (sin(x + pi/2) loses the digits of x + pi/2 on large x).
Tensor Tensor::cos() const {
  Tensor x = floated(*this);
  Tensor s = x.mul(0.5).sin();
  return s.mul(s).mul(-2).add(1);
}
Tensor Tensor::tan() const { return sin().div(cos()); }

// Cephes' asinf: for |x| <= 0.5 an odd polynomial, above it
// pi/2 - 2 asin(sqrt((1 - |x|) / 2)); NaN beyond 1.
Tensor Tensor::asin() const {
  Tensor x = floated(*this);
  return oddExtension(x, [](const Tensor &a) {
    Tensor big = a.gt(0.5);
    Tensor z = big.where(a.rsub(1).mul(0.5), a.mul(a));
    Tensor s = big.where(z.sqrt(), a);
    Tensor p = poly(z, {1.6666752422e-1, 7.4953002686e-2, 4.5470025998e-2, 2.4181311049e-2,
                        4.2163199048e-2})
                   .mul(z)
                   .mul(s)
                   .add(s);
    return big.where(p.mul(-2).add(M_PI / 2), p);
  });
}
Tensor Tensor::acos() const { return asin().rsub(M_PI / 2); }

// Cephes' atanf: the argument reduced to |t| <= tan(pi/8) by
// atan(x) = pi/2 + atan(-1/x) and pi/4 + atan((x - 1)/(x + 1)).
Tensor Tensor::atan() const {
  Tensor x = floated(*this);
  return oddExtension(x, [](const Tensor &a) {
    Tensor big = a.gt(2.414213562373095), mid = a.gt(0.4142135623730950);
    Tensor inv = big.where(a, 1.0).reciprocal().neg();
    Tensor t = big.where(inv, mid.where(a.sub(1).div(a.add(1)), a));
    Tensor y0 = big.where(M_PI / 2, mid.where(M_PI / 4, 0.0));
    Tensor z = t.mul(t);
    Tensor p = poly(z, {-3.33329491539e-1, 1.99777106478e-1, -1.38776856032e-1,
                        8.05374449538e-2})
                   .mul(z)
                   .mul(t)
                   .add(t);
    return p.add(y0);
  });
}

Tensor Tensor::sinh() const {
  Tensor x = floated(*this);
  return x.exp().sub(x.neg().exp()).mul(0.5);
}
Tensor Tensor::cosh() const {
  Tensor x = floated(*this);
  return x.exp().add(x.neg().exp()).mul(0.5);
}
// tanh(|x|) = (1 - e) / (1 + e) with e = exp(-2|x|) <= 1: no overflow, and
// its gradient is finite at every x.
Tensor Tensor::tanh() const {
  Tensor x = floated(*this);
  return oddExtension(x, [](const Tensor &a) {
    Tensor e = a.mul(-2).exp();
    return e.rsub(1).div(e.add(1));
  });
}
Tensor Tensor::asinh() const {
  Tensor x = floated(*this);
  return oddExtension(x, [](const Tensor &a) { return a.add(a.mul(a).add(1).sqrt()).log(); });
}
Tensor Tensor::acosh() const {
  Tensor x = floated(*this);
  return x.add(x.mul(x).sub(1).sqrt()).log();
}
Tensor Tensor::atanh() const {
  Tensor x = floated(*this);
  return x.add(1).div(x.rsub(1)).log().mul(0.5);
}

// erf as Eigen's (XLA's) rational approximation on [-4, 4] (beyond, erf is
// +-1 in f32): accurate to a few ulp, its gradient 0 where erf is flat.
Tensor Tensor::erf() const {
  Tensor x = floated(*this).clip(-4.0, 4.0);
  Tensor z = x.mul(x);
  Tensor p = poly(z, {-1.60960333262415e-02, -2.95459980854025e-03, -7.34990630326855e-04,
                      -5.69250639462346e-05, -2.10102402082508e-06, 2.77068142495902e-08,
                      -2.72614225801306e-10})
                 .mul(x);
  Tensor q = poly(z, {-1.42647390514189e-02, -7.37332916720468e-03, -1.68282697438203e-03,
                      -2.13374055278905e-04, -1.45660718464996e-05});
  return p.div(q);
}

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

Tensor Tensor::relu() const { return gt(0).where(*this, 0.0); }

// With e = exp(-|x|) <= 1: 1 / (1 + e) for x >= 0, e / (1 + e) below. No
// term overflows, so the gradient is finite everywhere (the seed's
// 1 / (1 + exp(-x)) differentiates to 0 * inf at large negative x).
Tensor Tensor::sigmoid() const {
  Tensor x = floated(*this);
  if (!x.ok())
    return x;
  Tensor negative = x.lt(0);
  Tensor e = negative.where(x, x.neg()).exp();
  return negative.where(e, 1.0).div(e.add(1));
}
Tensor Tensor::gelu(const std::string &approximate) const {
  Tensor x = floated(*this);
  if (approximate == "none")
    return x.mul(0.5).mul(x.mul(M_SQRT1_2).erf().add(1));
  if (approximate != "tanh")
    return err("gelu: approximate must be \"tanh\" or \"none\", got \"" + approximate + "\"");
  // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), the cube of x clipped
  // to +-20 (where tanh is +-1 already), so that its gradient does not
  // meet inf * 0 at huge |x|.
  Tensor c = x.clip(-20.0, 20.0);
  Tensor cube = c.mul(0.044715, /*reverse=*/true).mul(c).mul(c);
  Tensor inner = c.add(cube).mul(std::sqrt(2 / M_PI), /*reverse=*/true).tanh();
  return x.mul(0.5, /*reverse=*/true).mul(inner.add(1, /*reverse=*/true));
}
Tensor Tensor::silu() const { return floated(*this).mul(sigmoid()); }
Tensor Tensor::quickGelu() const {
  Tensor x = floated(*this);
  return x.mul(x.mul(1.702).sigmoid());
}
Tensor Tensor::leakyRelu(double negSlope) const {
  Tensor x = floated(*this);
  return x.gt(0).where(x, x.mul(negSlope));
}
// PyTorch's hardtanh: the gradient is 1 strictly inside (0 at the bounds,
// where clip's is 1).
Tensor Tensor::hardtanh(double minVal, double maxVal) const {
  Tensor x = floated(*this);
  return x.le(minVal).where(minVal, x.ge(maxVal).where(maxVal, x));
}
Tensor Tensor::relu6() const { return hardtanh(0, 6); }
Tensor Tensor::hardsigmoid(double alpha, double beta) const {
  Tensor y = floated(*this).mul(alpha).add(beta);
  return y.le(0).where(0.0, y.ge(1).where(1.0, y));
}
Tensor Tensor::hardswish() const {
  Tensor x = floated(*this);
  return x.lt(-3).where(0.0, x.gt(3).where(x, x.mul(x.add(3)).mul(1.0 / 6)));
}
// alpha (exp(x) - 1) below 0 on min(x, 0) (exp(x) of a large x would
// overflow in the branch not taken).
Tensor Tensor::elu(double alpha) const {
  Tensor x = floated(*this);
  Tensor positive = x.gt(0);
  Tensor xn = positive.where(0.0, x);
  return positive.where(x, xn.exp().sub(1).mul(alpha));
}
Tensor Tensor::celu(double alpha) const {
  Tensor x = floated(*this);
  Tensor positive = x.gt(0);
  Tensor xn = positive.where(0.0, x);
  return positive.where(x, xn.div(alpha).exp().sub(1).mul(alpha));
}
Tensor Tensor::selu(double alpha, double gamma) const { return elu(alpha).mul(gamma); }
Tensor Tensor::softplus(double beta) const {
  Tensor x = floated(*this);
  return x.mul(beta).logaddexp(0.0).mul(1 / beta);
}
Tensor Tensor::softsign() const {
  Tensor x = floated(*this);
  return x.div(x.abs().add(1));
}
Tensor Tensor::logsigmoid() const { return floated(*this).neg().softplus().neg(); }
Tensor Tensor::mish() const {
  Tensor x = floated(*this);
  return x.mul(x.softplus().tanh());
}

} // namespace uop
