//===- Elementwise.cpp - elementwise operations ------------------*- C++ -*-===//
//
// The seed's ALU ops on tensors: binary ops (broadcast together, with the
// seed's scalar promotion), where, casts, unary ops and their compositions
// (exp, tanh, gelu, ...), the staging identities (detach, contiguous), and
// the operators that spell them.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include <cmath>

namespace muop = mlir::uop;

namespace uop {
using namespace mlir;
using namespace detail;

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

namespace {
enum class BinOp { Add, Mul, Max, CmpLt, CmpNe };
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
  }
  return "?";
}

/// UOp(op, (a, b)) on two tensors, broadcast (the seed's _binop after _const).
static Tensor binary(BinOp op, const Tensor &a, const Tensor &b) {
  if (auto e = firstError({&a, &b}))
    return *e;
  if (a.dtype() != b.dtype())
    return err(std::string(binName(op)) + ": dtypes differ: " + rt::dtypeName(a.dtype()) + " and " +
               rt::dtypeName(b.dtype()) + " (cast one)");
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
  }
  return g.finish(v, {sharedNode(x), sharedNode(y)});
}

/// Tensor._const: a tensor of the self's dtype and shape ().
static Tensor constLike(const Tensor &self, Scalar x) {
  return Tensor::full({}, x, self.dtype(), *self.context());
}

/// The seed's _binop with a Python scalar: a float promotes a non-float
/// tensor; the scalar takes the tensor's dtype.
static Tensor binaryScalar(BinOp op, const Tensor &self, Scalar x, bool reverse) {
  if (!self.ok())
    return self;
  if (x.isFloat() && !isFloat(self.dtype()))
    return binaryScalar(op, self.toFloat(), x, reverse);
  Tensor c = constLike(self, x);
  return reverse ? binary(op, c, self) : binary(op, self, c);
}

/// Promotes a non-float tensor for a float scalar (the seed's _binop rule,
/// applied to sub/div too, where the seed would truncate the scalar).
static Tensor promoteFor(const Tensor &self, Scalar x) {
  return self.ok() && x.isFloat() && !isFloat(self.dtype()) ? self.toFloat() : self;
}

Tensor Tensor::add(const Tensor &x) const { return binary(BinOp::Add, *this, x); }
Tensor Tensor::add(Scalar x, bool reverse) const {
  return binaryScalar(BinOp::Add, *this, x, reverse);
}
Tensor Tensor::mul(const Tensor &x) const { return binary(BinOp::Mul, *this, x); }
Tensor Tensor::mul(Scalar x, bool reverse) const {
  return binaryScalar(BinOp::Mul, *this, x, reverse);
}
Tensor Tensor::neg() const { return mul(-1); }
Tensor Tensor::sub(const Tensor &x) const { return add(x.neg()); }
Tensor Tensor::sub(Scalar x) const {
  Tensor s = promoteFor(*this, x);
  if (!s.ok())
    return s;
  return s.add(constLike(s, x).neg());
}
Tensor Tensor::rsub(Scalar x) const {
  Tensor s = promoteFor(*this, x);
  if (!s.ok())
    return s;
  return constLike(s, x).add(s.neg());
}
Tensor Tensor::div(const Tensor &x) const { return mul(x.reciprocal()); }
Tensor Tensor::div(Scalar x) const {
  Tensor s = promoteFor(*this, x);
  if (!s.ok())
    return s;
  return s.mul(constLike(s, x).reciprocal());
}
Tensor Tensor::rdiv(Scalar x) const {
  Tensor s = promoteFor(*this, x);
  if (!s.ok())
    return s;
  return constLike(s, x).mul(s.reciprocal());
}
Tensor Tensor::lt(const Tensor &x) const { return binary(BinOp::CmpLt, *this, x); }
Tensor Tensor::lt(Scalar x) const { return binaryScalar(BinOp::CmpLt, *this, x, false); }
Tensor Tensor::gt(const Tensor &x) const { return binary(BinOp::CmpLt, x, *this); }
Tensor Tensor::gt(Scalar x) const { return binaryScalar(BinOp::CmpLt, *this, x, true); }
Tensor Tensor::ge(const Tensor &x) const { return lt(x).logicalNot(); }
Tensor Tensor::ge(Scalar x) const { return lt(x).logicalNot(); }
Tensor Tensor::le(const Tensor &x) const { return gt(x).logicalNot(); }
Tensor Tensor::le(Scalar x) const { return gt(x).logicalNot(); }
Tensor Tensor::eq(const Tensor &x) const { return ne(x).logicalNot(); }
Tensor Tensor::eq(Scalar x) const { return ne(x).logicalNot(); }
Tensor Tensor::ne(const Tensor &x) const { return binary(BinOp::CmpNe, *this, x); }
Tensor Tensor::ne(Scalar x) const { return binaryScalar(BinOp::CmpNe, *this, x, false); }
Tensor Tensor::logicalNot() const { return binaryScalar(BinOp::CmpNe, *this, true, false); }
Tensor Tensor::maximum(const Tensor &x) const { return binary(BinOp::Max, *this, x); }
Tensor Tensor::maximum(Scalar x) const { return binaryScalar(BinOp::Max, *this, x, false); }
Tensor Tensor::minimum(const Tensor &x) const { return neg().maximum(x.neg()).neg(); }
Tensor Tensor::minimum(Scalar x) const {
  if (!ok())
    return *this;
  if (x.isFloat() && !isFloat(dtype()))
    return toFloat().minimum(x);
  return neg().maximum(constLike(*this, x).neg()).neg();
}

//===----------------------------------------------------------------------===//
// Ternary
//===----------------------------------------------------------------------===//

Tensor Tensor::where(const Tensor &a, const Tensor &b) const {
  if (auto e = firstError({this, &a, &b}))
    return *e;
  if (dtype() != DType::Bool)
    return err(std::string("where: the condition must be bool, got ") + rt::dtypeName(dtype()));
  if (a.dtype() != b.dtype())
    return err(std::string("where: branch dtypes differ: ") + rt::dtypeName(a.dtype()) + " and " +
               rt::dtypeName(b.dtype()));
  auto shape = broadcastShapes({this->shape(), a.shape(), b.shape()});
  if (!shape)
    return err("where: " + llvm::toString(shape.takeError()));
  Tensor c = broadcastTo(*shape), x = a.broadcastTo(*shape), y = b.broadcastTo(*shape);
  if (auto e = firstError({&c, &x, &y}))
    return *e;
  GraphBuilder g(context());
  Value v = muop::WhereOp::create(g.b, g.loc, c.value(), x.value(), y.value());
  return g.finish(v, {sharedNode(c), sharedNode(x), sharedNode(y)});
}
Tensor Tensor::where(const Tensor &a, Scalar b) const {
  if (!a.ok())
    return a;
  return where(a, Tensor::full({}, b, a.dtype(), *a.context()));
}
Tensor Tensor::where(Scalar a, const Tensor &b) const {
  if (!b.ok())
    return b;
  return where(Tensor::full({}, a, b.dtype(), *b.context()), b);
}
Tensor Tensor::where(Scalar a, Scalar b) const {
  if (!ok())
    return *this;
  Tensor ta = Tensor::full({}, a, DType::F32, *context());
  return where(ta, Tensor::full({}, b, DType::F32, *context()));
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

Tensor Tensor::cast(DType d) const {
  if (!ok() || d == dtype())
    return *this;
  GraphBuilder g(context());
  Value v = muop::CastOp::create(g.b, g.loc, value(),
                                 TypeAttr::get(mlirDType(context()->mlirContext(), d)));
  return g.finish(v, {sharedNode(*this)});
}

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

namespace {
enum class UnOp { Recip, Exp2, Log2, Sqrt, Sin };
}

static Tensor unary(UnOp op, const Tensor &x) {
  static const char *names[] = {"reciprocal", "exp2", "log2", "sqrt", "sin"};
  if (!x.ok())
    return x;
  if (!isFloat(x.dtype()))
    return err(std::string(names[static_cast<int>(op)]) + " needs a float tensor, got " +
               rt::dtypeName(x.dtype()));
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

Tensor Tensor::reciprocal() const { return unary(UnOp::Recip, *this); }
Tensor Tensor::exp2() const { return unary(UnOp::Exp2, *this); }
Tensor Tensor::log2() const { return unary(UnOp::Log2, *this); }
Tensor Tensor::exp() const { return mul(kLog2E).exp2(); }
Tensor Tensor::log() const { return log2().mul(kLn2); }
Tensor Tensor::sqrt() const { return unary(UnOp::Sqrt, *this); }
Tensor Tensor::rsqrt() const { return sqrt().reciprocal(); }
Tensor Tensor::sin() const { return unary(UnOp::Sin, *this); }
Tensor Tensor::cos() const { return add(M_PI / 2).sin(); }
Tensor Tensor::square() const { return mul(*this); }
Tensor Tensor::abs() const { return maximum(neg()); }
Tensor Tensor::relu() const { return gt(0).where(*this, 0.0); }
Tensor Tensor::sigmoid() const { return neg().exp().add(1).reciprocal(); }
Tensor Tensor::tanh() const { return mul(2).sigmoid().mul(2).sub(1); }
Tensor Tensor::gelu() const {
  // 0.5 * self * (1 + (sqrt(2/pi) * (self + 0.044715 * self * self * self)).tanh())
  Tensor cube = mul(0.044715, /*reverse=*/true).mul(*this).mul(*this);
  Tensor inner = add(cube).mul(std::sqrt(2 / M_PI), /*reverse=*/true).tanh();
  return mul(0.5, /*reverse=*/true).mul(inner.add(1, /*reverse=*/true));
}
Tensor Tensor::silu() const { return mul(sigmoid()); }

//===----------------------------------------------------------------------===//
// Staging: identities that mark the graph (uop.stage)
//===----------------------------------------------------------------------===//

static Tensor stage(const Tensor &x, bool detach) {
  if (!x.ok())
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

} // namespace uop
