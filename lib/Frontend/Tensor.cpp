//===- Tensor.cpp - the lazy Tensor frontend ---------------------*- C++ -*-===//
//
// A port of uopc/tensor.py: each operation is the seed's composition of
// primitives, in the seed's operand order, so the graphs (and the values,
// where the seed is exact) are the seed's.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include "Uop/IR/UopComposite.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopTypes.h"
#include "Uop/Runtime/Npy.h"
#include "Uop/Transforms/Autodiff.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>

namespace muop = mlir::uop;

namespace uop {
using namespace mlir;
using namespace detail;

//===----------------------------------------------------------------------===//
// The handle
//===----------------------------------------------------------------------===//

Tensor detail::fromNode(std::shared_ptr<const TensorNode> node) {
  auto h = std::make_shared<TensorHolder>();
  h->node = std::move(node);
  return Tensor(std::move(h));
}

/// The node of an ok tensor (null otherwise).
static const TensorNode *nodeOf(const Tensor &t) {
  auto &h = t.holder();
  return h && h->node && !h->node->error.size() && h->node->value ? h->node.get() : nullptr;
}

//===----------------------------------------------------------------------===//
// Data tensors
//===----------------------------------------------------------------------===//

/// A node owning `data`: `uop.buffer ID : tensor<N x T>` (+ a reshape to
/// `shape`).
Tensor detail::dataTensor(TensorContext &ctx, std::shared_ptr<rt::HostBuffer> data,
                          const Shape &shape) {
  auto &c = ctx.impl();
  if (prod(shape) != data->numel())
    return err("data of " + data->describe() + " does not fit shape " + shapeStr(shape));
  if (data->numel() == 0)
    return err("empty tensors are not supported (shape " + shapeStr(shape) + ")");
  int64_t id = c.nextBufferId++;
  OpBuilder b(&c.mlir);
  b.setInsertionPointToEnd(c.graph);
  Location loc = UnknownLoc::get(&c.mlir);
  Type dt = mlirDType(c.mlir, data->dtype());
  Value v = muop::BufferOp::create(b, loc, RankedTensorType::get({data->numel()}, dt),
                                   static_cast<uint64_t>(id));
  ++c.built;
  if (shape != Shape{data->numel()}) {
    v = muop::ReshapeOp::create(b, loc, v, b.getDenseI64ArrayAttr(shape));
    ++c.built;
  }
  c.buffers[id] = data;
  auto node = std::make_shared<TensorNode>();
  node->ctx = &ctx;
  node->value = v;
  c.retain(v);
  node->data = std::move(data);
  node->bufferId = id;
  return fromNode(std::move(node));
}

Tensor Tensor::fromBuffer(std::shared_ptr<rt::HostBuffer> data, TensorContext &ctx) {
  if (!data)
    return err("fromBuffer: null buffer");
  Shape shape = data->shape();
  return dataTensor(ctx, std::move(data), shape);
}

Tensor Tensor::fromBuffer(const rt::HostBuffer &data, TensorContext &ctx) {
  return fromBuffer(std::make_shared<rt::HostBuffer>(data), ctx);
}

template <typename T>
static Tensor fromValues(const std::vector<T> &data, const Shape &shape, DType dtype,
                         TensorContext &ctx) {
  for (int64_t d : shape)
    if (d < 0)
      return err("fromVector: negative dimension in shape " + shapeStr(shape));
  if (prod(shape) != static_cast<int64_t>(data.size()))
    return err("fromVector: " + std::to_string(data.size()) + " values do not fit shape " +
               shapeStr(shape));
  auto buf = rt::HostBuffer::create(dtype, shape);
  if (!buf.ok())
    return err(buf.error());
  auto shared = std::make_shared<rt::HostBuffer>(buf.take());
  for (size_t i = 0; i < data.size(); ++i)
    shared->setDouble(i, static_cast<double>(data[i]));
  return dataTensor(ctx, std::move(shared), shape);
}

Tensor Tensor::fromVector(const std::vector<float> &data, const Shape &shape, TensorContext &ctx) {
  return fromValues(data, shape, DType::F32, ctx);
}
Tensor Tensor::fromInts(const std::vector<int32_t> &data, const Shape &shape, TensorContext &ctx) {
  return fromValues(data, shape, DType::I32, ctx);
}
Tensor Tensor::fromBools(const std::vector<bool> &data, const Shape &shape, TensorContext &ctx) {
  std::vector<int> v(data.begin(), data.end());
  return fromValues(v, shape, DType::Bool, ctx);
}
Tensor Tensor::fromVector(const std::vector<float> &data, TensorContext &ctx) {
  return fromValues(data, {static_cast<int64_t>(data.size())}, DType::F32, ctx);
}

Tensor Tensor::load(const std::string &path, TensorContext &ctx) {
  auto buf = rt::readNpy(path);
  if (!buf.ok())
    return err(buf.error());
  return fromBuffer(std::make_shared<rt::HostBuffer>(buf.take()), ctx);
}

Tensor Tensor::makeError(std::string message) {
  auto node = std::make_shared<TensorNode>();
  node->error = message.empty() ? "error" : std::move(message);
  return fromNode(std::move(node));
}

Tensor::Tensor() : Tensor(makeError("uninitialized tensor")) {}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

Tensor Tensor::full(const Shape &shape, Scalar v, DType dtype, TensorContext &ctx) {
  for (int64_t d : shape)
    if (d < 0)
      return err("full: negative dimension in shape " + shapeStr(shape));
  GraphBuilder g(&ctx);
  Value c = g.constant(v, mlirDType(ctx.mlirContext(), dtype));
  if (!shape.empty())
    c = g.expand(g.reshape(c, Shape(shape.size(), 1)), shape);
  return g.finish(c, {});
}
Tensor Tensor::zeros(const Shape &shape, DType dtype, TensorContext &ctx) {
  return full(shape, 0, dtype, ctx);
}
Tensor Tensor::ones(const Shape &shape, DType dtype, TensorContext &ctx) {
  return full(shape, 1, dtype, ctx);
}

Tensor Tensor::arange(int64_t n, TensorContext &ctx) {
  if (n <= 0)
    return err("arange: n must be positive, got " + std::to_string(n));
  std::vector<int32_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  Tensor t = fromInts(v, {n}, ctx);
  // Data that depends on n alone: a TinyJit may replay it as captured.
  if (t.ok())
    ctx.impl().constantBuffers.insert(detail::bufferIdOf(t));
  return t;
}

//===----------------------------------------------------------------------===//
// Inspection
//===----------------------------------------------------------------------===//

bool Tensor::ok() const { return nodeOf(*this) != nullptr; }
std::string Tensor::error() const {
  if (!h || !h->node)
    return "uninitialized tensor";
  return h->node->error;
}
llvm::Error Tensor::takeError() const {
  if (ok())
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), error());
}
Shape Tensor::shape() const {
  const TensorNode *n = nodeOf(*this);
  return n ? shapeOfValue(n->value) : Shape{};
}
DType Tensor::dtype() const {
  const TensorNode *n = nodeOf(*this);
  return n ? rtDType(muop::getDType(n->value.getType())) : DType::F32;
}
int64_t Tensor::numel() const { return prod(shape()); }
TensorContext *Tensor::context() const {
  const TensorNode *n = nodeOf(*this);
  return n ? n->ctx : nullptr;
}
Value Tensor::value() const {
  const TensorNode *n = nodeOf(*this);
  return n ? n->value : Value();
}
Value Tensor::graphValue() const {
  if (!ok())
    return Value();
  return h->graph ? h->graph->value : h->node->value;
}
bool Tensor::requiresGrad() const { return h && h->requiresGrad; }
Tensor &Tensor::setRequiresGrad(bool v) {
  if (h)
    h->requiresGrad = v;
  return *this;
}

std::string Tensor::str() const {
  if (!ok())
    return "<Tensor error: " + error() + ">";
  return "<Tensor " + shapeStr(shape()) + " " + rt::dtypeName(dtype()) +
         (requiresGrad() ? " grad" : "") + ">";
}

llvm::Error Tensor::assign(const Tensor &x) {
  if (auto e = firstError({this, &x}))
    return e->takeError();
  if (x.shape() != shape() || x.dtype() != dtype())
    return llvm::createStringError("assign: " + x.str() + " to " + str());
  h->node = x.h->node;
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

llvm::Expected<Shape> broadcastShapes(ArrayRef<Shape> shapes) {
  size_t n = 0;
  for (const Shape &s : shapes)
    n = std::max(n, s.size());
  Shape out(n, 1);
  for (size_t i = 0; i < n; ++i) {
    int64_t d = 1;
    for (const Shape &s : shapes) {
      int64_t k = i + s.size() >= n ? s[i + s.size() - n] : 1;
      if (k != 1 && d != 1 && k != d) {
        std::string msg = "cannot broadcast";
        for (auto [j, s2] : llvm::enumerate(shapes))
          msg += (j ? " with " : " ") + shapeStr(s2);
        return llvm::createStringError(msg);
      }
      if (k != 1)
        d = k;
    }
    out[i] = d;
  }
  return out;
}

Tensor Tensor::broadcastTo(const Shape &target) const {
  if (!ok())
    return *this;
  Shape s = shape();
  if (s == target)
    return *this;
  bool fits = target.size() >= s.size();
  for (size_t i = 0; fits && i < s.size(); ++i) {
    int64_t t = target[target.size() - s.size() + i];
    fits = t >= 0 && (s[i] == t || s[i] == 1);
  }
  if (!fits)
    return err("cannot broadcast " + shapeStr(s) + " to " + shapeStr(target));
  GraphBuilder g(context());
  Value u = value();
  if (s.size() < target.size()) {
    Shape r(target.size() - s.size(), 1);
    r.insert(r.end(), s.begin(), s.end());
    u = g.reshape(u, r);
  }
  if (shapeOfValue(u) != target)
    u = g.expand(u, target);
  return g.finish(u, {sharedNode(*this)});
}

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

Tensor Tensor::cast(DType d) const {
  if (!ok() || d == dtype())
    return *this;
  GraphBuilder g(context());
  Value v = muop::CastOp::create(g.b, g.loc, value(),
                                 TypeAttr::get(mlirDType(context()->mlirContext(), d)));
  return g.finish(v, {sharedNode(*this)});
}

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
// Movement
//===----------------------------------------------------------------------===//

Tensor Tensor::reshape(const Shape &target) const {
  if (!ok())
    return *this;
  Shape s = shape(), to = target;
  int unknown = -1;
  for (auto [i, d] : llvm::enumerate(to)) {
    if (d == -1) {
      if (unknown >= 0)
        return err("reshape: more than one -1 in " + shapeStr(target));
      unknown = i;
    } else if (d < 0) {
      return err("reshape: negative dimension in " + shapeStr(target));
    }
  }
  if (unknown >= 0) {
    int64_t known = 1;
    for (int64_t d : to)
      if (d != -1)
        known *= d;
    if (known == 0 || numel() % known)
      return err("cannot reshape " + shapeStr(s) + " to " + shapeStr(target));
    to[unknown] = numel() / known;
  }
  if (prod(to) != numel())
    return err("cannot reshape " + shapeStr(s) + " to " + shapeStr(target) + ": element counts " +
               std::to_string(numel()) + " vs " + std::to_string(prod(to)));
  if (to == s)
    return *this;
  GraphBuilder g(context());
  return g.finish(g.reshape(value(), to), {sharedNode(*this)});
}

Tensor Tensor::permute(const std::vector<int64_t> &order) const {
  if (!ok())
    return *this;
  int64_t n = ndim();
  if (static_cast<int64_t>(order.size()) != n)
    return err("permute: " + shapeStr(order) + " is not a permutation of the " + std::to_string(n) +
               " axes of " + shapeStr(shape()));
  std::vector<int64_t> perm;
  std::vector<bool> seen(n, false);
  for (int64_t o : order) {
    auto a = normAxis(o, n);
    if (!a || seen[*a])
      return err("permute: " + shapeStr(order) + " is not a permutation of the " +
                 std::to_string(n) + " axes of " + shapeStr(shape()));
    seen[*a] = true;
    perm.push_back(*a);
  }
  bool identity = true;
  for (int64_t i = 0; i < n; ++i)
    identity &= perm[i] == i;
  if (identity)
    return *this;
  GraphBuilder g(context());
  Value v = muop::PermuteOp::create(g.b, g.loc, value(), g.b.getDenseI64ArrayAttr(perm));
  return g.finish(v, {sharedNode(*this)});
}

Tensor Tensor::transpose(int64_t a, int64_t b) const {
  if (!ok())
    return *this;
  auto x = normAxis(a, ndim()), y = normAxis(b, ndim());
  if (!x || !y)
    return err(axisError("transpose", !x ? a : b, shape()));
  std::vector<int64_t> order(ndim());
  std::iota(order.begin(), order.end(), 0);
  std::swap(order[*x], order[*y]);
  return permute(order);
}

Tensor Tensor::expand(const Shape &target) const {
  if (!ok())
    return *this;
  Shape s = shape(), to = target;
  if (to.size() < s.size())
    return err("expand: cannot expand " + shapeStr(s) + " to fewer dimensions " + shapeStr(target));
  for (size_t i = 0; i < s.size(); ++i) {
    int64_t &d = to[to.size() - s.size() + i];
    if (d == -1)
      d = s[i];
  }
  return broadcastTo(to);
}

Tensor Tensor::flatten(int64_t start) const {
  if (!ok())
    return *this;
  int64_t n = ndim();
  if (start < 0)
    start += n;
  if (start < 0 || start > n)
    return err(axisError("flatten", start, shape()));
  Shape s = shape();
  Shape to(s.begin(), s.begin() + start);
  to.push_back(-1);
  return reshape(to);
}

Tensor Tensor::unsqueeze(int64_t d) const {
  if (!ok())
    return *this;
  auto a = normAxis(d, ndim() + 1);
  if (!a)
    return err(axisError("unsqueeze", d, shape()));
  Shape s = shape();
  s.insert(s.begin() + *a, 1);
  return reshape(s);
}

Tensor Tensor::squeeze(int64_t d) const {
  if (!ok())
    return *this;
  auto a = normAxis(d, ndim());
  if (!a)
    return err(axisError("squeeze", d, shape()));
  Shape s = shape();
  if (s[*a] != 1)
    return err("squeeze: axis " + std::to_string(d) + " of " + shapeStr(s) + " is not 1");
  s.erase(s.begin() + *a);
  return reshape(s);
}

Tensor Tensor::shrink(const std::vector<std::pair<int64_t, int64_t>> &bounds) const {
  if (!ok())
    return *this;
  Shape s = shape();
  std::string desc = "[";
  for (auto [i, be] : llvm::enumerate(bounds))
    desc += (i ? ", " : "") + std::to_string(be.first) + ":" + std::to_string(be.second);
  desc += "]";
  if (bounds.size() != s.size())
    return err("shrink: " + desc + " has not one begin:end per axis of " + shapeStr(s));
  bool identity = true;
  std::vector<int64_t> flat;
  for (auto [i, be] : llvm::enumerate(bounds)) {
    if (!(0 <= be.first && be.first <= be.second && be.second <= s[i]))
      return err("shrink: bounds " + desc + " do not fit shape " + shapeStr(s));
    identity &= be.first == 0 && be.second == s[i];
    flat.push_back(be.first);
    flat.push_back(be.second);
  }
  if (identity)
    return *this;
  GraphBuilder g(context());
  Value v = muop::ShrinkOp::create(g.b, g.loc, value(), g.b.getDenseI64ArrayAttr(flat));
  return g.finish(v, {sharedNode(*this)});
}

Tensor Tensor::slice(int64_t axis, int64_t begin, int64_t end) const {
  if (!ok())
    return *this;
  auto a = normAxis(axis, ndim());
  if (!a)
    return err(axisError("slice", axis, shape()));
  Shape s = shape();
  int64_t n = s[*a];
  auto clamp = [n](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + n : i, 0, n); };
  int64_t b = clamp(begin), e = clamp(end);
  std::vector<std::pair<int64_t, int64_t>> bounds;
  for (int64_t d : s)
    bounds.push_back({0, d});
  bounds[*a] = {b, std::max(b, e)};
  return shrink(bounds);
}

Tensor Tensor::select(int64_t axis, int64_t i) const {
  if (!ok())
    return *this;
  auto a = normAxis(axis, ndim());
  if (!a)
    return err(axisError("select", axis, shape()));
  int64_t n = shape()[*a];
  if (i < -n || i >= n)
    return err("select: index " + std::to_string(i) + " is out of range for axis " +
               std::to_string(axis) + " of " + shapeStr(shape()));
  if (i < 0)
    i += n;
  return slice(*a, i, i + 1).squeeze(*a);
}

Tensor Tensor::pad(const std::vector<std::pair<int64_t, int64_t>> &pads) const {
  if (!ok())
    return *this;
  if (pads.size() != shape().size())
    return err("pad: " + std::to_string(pads.size()) + " (before, after) pairs for shape " +
               shapeStr(shape()));
  for (auto [b, a] : pads)
    if (b < 0 || a < 0)
      return err("pad: negative padding");
  GraphBuilder g(context());
  SmallVector<std::pair<int64_t, int64_t>> p(pads.begin(), pads.end());
  return g.finish(muop::pad(g.b, g.loc, value(), p), {sharedNode(*this)});
}

Tensor Tensor::flip(int64_t axis) const {
  if (!ok())
    return *this;
  auto a = normAxis(axis, ndim());
  if (!a)
    return err(axisError("flip", axis, shape()));
  GraphBuilder g(context());
  return g.finish(muop::flipAxis(g.b, g.loc, value(), *a), {sharedNode(*this)});
}

Tensor Tensor::cat(ArrayRef<Tensor> ts, int64_t dim) {
  if (ts.empty())
    return err("cat: no tensors");
  for (const Tensor &t : ts)
    if (auto e = firstError({&ts[0], &t}))
      return *e;
  Shape s0 = ts[0].shape();
  auto d = normAxis(dim, s0.size());
  if (!d)
    return err(axisError("cat", dim, s0));
  int64_t total = 0;
  for (const Tensor &t : ts) {
    Shape s = t.shape();
    bool same = s.size() == s0.size() && t.dtype() == ts[0].dtype();
    for (size_t i = 0; same && i < s.size(); ++i)
      same = i == static_cast<size_t>(*d) || s[i] == s0[i];
    if (!same)
      return err("cat: " + t.str() + " does not fit " + ts[0].str() + " along axis " +
                 std::to_string(dim));
    total += s[*d];
  }
  Tensor out;
  int64_t off = 0;
  for (auto [i, t] : llvm::enumerate(ts)) {
    std::vector<std::pair<int64_t, int64_t>> p(s0.size(), {0, 0});
    int64_t n = t.shape()[*d];
    p[*d] = {off, total - off - n};
    Tensor piece = t.pad(p);
    out = i == 0 ? piece : out.add(piece);
    off += n;
  }
  return out;
}

Tensor Tensor::stack(ArrayRef<Tensor> ts, int64_t dim) {
  if (ts.empty())
    return err("stack: no tensors");
  std::vector<std::shared_ptr<const TensorNode>> srcs;
  SmallVector<Value> vals;
  for (const Tensor &t : ts) {
    if (auto e = firstError({&ts[0], &t}))
      return *e;
    if (t.shape() != ts[0].shape() || t.dtype() != ts[0].dtype())
      return err("stack: " + t.str() + " and " + ts[0].str() + " differ");
    srcs.push_back(sharedNode(t));
    vals.push_back(t.value());
  }
  auto d = normAxis(dim, ts[0].ndim() + 1);
  if (!d)
    return err(axisError("stack", dim, ts[0].shape()));
  GraphBuilder g(ts[0].context());
  Value v = muop::StackOp::create(g.b, g.loc, vals);
  v = muop::moveAxis(g.b, g.loc, v, 0, *d);
  return g.finish(v, std::move(srcs));
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

static Tensor reduce(const Tensor &self, muop::ReduceKind kind, const std::vector<int64_t> &ax,
                     bool keepdim, const char *what) {
  if (!self.ok())
    return self;
  int64_t n = self.ndim();
  std::vector<int64_t> axes;
  if (ax.empty()) {
    axes.resize(n);
    std::iota(axes.begin(), axes.end(), 0);
  }
  std::vector<bool> seen(n, false);
  for (int64_t a : ax) {
    auto na = normAxis(a, n);
    if (!na)
      return err(axisError(what, a, self.shape()));
    if (seen[*na])
      return err(std::string(what) + ": axis " + std::to_string(a) + " given twice");
    seen[*na] = true;
    axes.push_back(*na);
  }
  std::vector<int64_t> order;
  for (int64_t i = 0; i < n; ++i)
    if (!llvm::is_contained(axes, i))
      order.push_back(i);
  order.insert(order.end(), axes.begin(), axes.end());
  Tensor t = self.permute(order);
  if (!t.ok())
    return t;
  GraphBuilder g(t.context());
  Value v = muop::ReduceOp::create(g.b, g.loc, t.value(),
                                   muop::ReduceKindAttr::get(&t.context()->mlirContext(), kind),
                                   g.b.getI64IntegerAttr(axes.size()));
  Tensor r = g.finish(v, {sharedNode(t)});
  if (keepdim) {
    Shape s = self.shape();
    for (int64_t a : axes)
      s[a] = 1;
    r = r.reshape(s);
  }
  return r;
}

Tensor Tensor::sum(const std::vector<int64_t> &axes, bool keepdim) const {
  return reduce(*this, muop::ReduceKind::Add, axes, keepdim, "sum");
}
Tensor Tensor::sum(int64_t axis, bool keepdim) const {
  return sum(std::vector<int64_t>{axis}, keepdim);
}
Tensor Tensor::max(const std::vector<int64_t> &axes, bool keepdim) const {
  return reduce(*this, muop::ReduceKind::Max, axes, keepdim, "max");
}
Tensor Tensor::max(int64_t axis, bool keepdim) const {
  return max(std::vector<int64_t>{axis}, keepdim);
}
Tensor Tensor::min(const std::vector<int64_t> &axes, bool keepdim) const {
  return neg().max(axes, keepdim).neg();
}
Tensor Tensor::min(int64_t axis, bool keepdim) const {
  return min(std::vector<int64_t>{axis}, keepdim);
}
Tensor Tensor::mean(const std::vector<int64_t> &axes, bool keepdim) const {
  if (!ok())
    return *this;
  Tensor s = (isFloat(dtype()) ? *this : toFloat()).sum(axes, keepdim);
  if (!s.ok())
    return s;
  return s.mul(static_cast<double>(s.numel()) / static_cast<double>(numel()));
}
Tensor Tensor::mean(int64_t axis, bool keepdim) const {
  return mean(std::vector<int64_t>{axis}, keepdim);
}
Tensor Tensor::var(const std::vector<int64_t> &axes, bool keepdim) const {
  return sub(mean(axes, true)).square().mean(axes, keepdim);
}
Tensor Tensor::var(int64_t axis, bool keepdim) const {
  return var(std::vector<int64_t>{axis}, keepdim);
}
Tensor Tensor::softmax(int64_t axis) const {
  Tensor e = sub(max(axis, true)).exp();
  return e.div(e.sum(axis, true));
}
Tensor Tensor::logSoftmax(int64_t axis) const {
  Tensor m = sub(max(axis, true));
  return m.sub(m.exp().sum(axis, true).log());
}
Tensor Tensor::logsumexp(int64_t axis) const {
  Tensor m = max(axis, true);
  return sub(m).exp().sum(axis, true).log().add(m);
}
Tensor Tensor::argmax(int64_t axis) const {
  if (!ok())
    return *this;
  auto a = normAxis(axis, ndim());
  if (!a)
    return err(axisError("argmax", axis, shape()));
  int64_t n = shape()[*a];
  Shape is{n};
  is.resize(ndim() - *a, 1);
  Tensor idx = Tensor::arange(n, *context()).reshape(is);
  Tensor isMax = eq(max(*a, true));
  return isMax.where(idx.rsub(n), 0).max(*a).mul(-1).add(n);
}

//===----------------------------------------------------------------------===//
// Linear algebra, losses
//===----------------------------------------------------------------------===//

Tensor Tensor::matmul(const Tensor &w) const {
  if (auto e = firstError({this, &w}))
    return *e;
  if (ndim() == 0 || w.ndim() == 0)
    return err("matmul: scalars do not multiply as matrices (" + str() + " @ " + w.str() + ")");
  Tensor x = ndim() > 1 ? *this : reshape({1, -1});
  Tensor wt = w.ndim() == 1 ? w.reshape({-1, 1}) : w;
  Shape xs = x.shape(), ws = wt.shape();
  if (xs.back() != ws[ws.size() - 2])
    return err("matmul: " + shapeStr(shape()) + " @ " + shapeStr(w.shape()) +
               ": inner dimensions " + std::to_string(xs.back()) + " and " +
               std::to_string(ws[ws.size() - 2]) + " differ");
  wt = wt.transpose(); // (..., N, K)
  Shape x3(xs.begin(), xs.end() - 1);
  x3.push_back(1);
  x3.push_back(xs.back());
  x = x.reshape(x3); // (..., M, 1, K)
  Shape wts = wt.shape();
  Shape w3(wts.begin(), wts.end() - 2);
  w3.push_back(1);
  w3.insert(w3.end(), wts.end() - 2, wts.end());
  wt = wt.reshape(w3); // (..., 1, N, K)
  Tensor out = x.mul(wt).sum(-1);
  if (!out.ok())
    return err("matmul: " + out.error());
  if (ndim() == 1) {
    Shape s = out.shape();
    s.erase(s.end() - 2);
    out = out.reshape(s);
  }
  if (w.ndim() == 1) {
    Shape s = out.shape();
    s.pop_back();
    out = out.reshape(s);
  }
  return out;
}

Tensor Tensor::linear(const Tensor &w) const { return matmul(w); }
Tensor Tensor::linear(const Tensor &w, const Tensor &b) const { return matmul(w).add(b); }

/// The seed's _stride2d: every s-th row and column of a window
/// (N, C, s*(OH-1)+1, s*(OW-1)+1) -> (N, C, OH, OW), by padding to a multiple
/// of s, splitting each spatial axis into (O, s) and keeping element 0.
static Tensor stride2d(const Tensor &x, int64_t s, int64_t oh, int64_t ow) {
  Shape sh = x.shape();
  int64_t n = sh[0], c = sh[1], h = sh[2], w = sh[3];
  Tensor t = x.pad({{0, 0}, {0, 0}, {0, oh * s - h}, {0, ow * s - w}});
  t = t.reshape({n, c, oh, s, ow, s}).shrink({{0, n}, {0, c}, {0, oh}, {0, 1}, {0, ow}, {0, 1}});
  return t.reshape({n, c, oh, ow});
}

/// The KH*KW windows of conv2d's im2col, each (N, C, OH, OW), in (ky, kx)
/// order.
static std::vector<Tensor> windows2d(const Tensor &x, int64_t kh, int64_t kw, int64_t stride,
                                     int64_t oh, int64_t ow) {
  Shape sh = x.shape();
  std::vector<Tensor> cols;
  for (int64_t ky = 0; ky < kh; ++ky)
    for (int64_t kx = 0; kx < kw; ++kx) {
      Tensor win = x.shrink({{0, sh[0]},
                             {0, sh[1]},
                             {ky, ky + stride * (oh - 1) + 1},
                             {kx, kx + stride * (ow - 1) + 1}});
      if (stride > 1)
        win = stride2d(win, stride, oh, ow);
      cols.push_back(win);
    }
  return cols;
}

Tensor Tensor::conv2d(const Tensor &w, const std::optional<Tensor> &bias, int64_t padding,
                      int64_t stride) const {
  if (auto e = firstError({this, &w}))
    return *e;
  if (bias)
    if (auto e = firstError({this, &*bias}))
      return *e;
  std::string what = "conv2d: input " + shapeStr(shape()) + ", weight " + shapeStr(w.shape());
  if (bias)
    what += ", bias " + shapeStr(bias->shape());
  if (ndim() != 4 || w.ndim() != 4)
    return err(what + ": needs a (N, C, H, W) input and a (O, C, KH, KW) weight");
  if (w.shape()[1] != shape()[1])
    return err(what + ": the weight's " + std::to_string(w.shape()[1]) +
               " input channels differ from the input's " + std::to_string(shape()[1]));
  if (padding < 0 || stride < 1)
    return err(what + ": padding " + std::to_string(padding) + " and stride " +
               std::to_string(stride) + " (padding must be >= 0, stride >= 1)");
  if (w.dtype() != dtype() || (bias && bias->dtype() != dtype()))
    return err(what + ": dtypes differ (" + str() + ", " + w.str() +
               (bias ? ", " + bias->str() : std::string()) + ")");
  int64_t o = w.shape()[0], kh = w.shape()[2], kw = w.shape()[3];
  if (bias && bias->shape() != Shape{o})
    return err(what + ": the bias must be (" + std::to_string(o) + ",)");
  Tensor x = padding ? pad({{0, 0}, {0, 0}, {padding, padding}, {padding, padding}}) : *this;
  Shape xs = x.shape();
  int64_t n = xs[0], c = xs[1], h = xs[2], wd = xs[3];
  if (kh > h || kw > wd)
    return err(what + ": the " + std::to_string(kh) + "x" + std::to_string(kw) +
               " kernel does not fit the padded " + std::to_string(h) + "x" + std::to_string(wd) +
               " input");
  int64_t oh = (h - kh) / stride + 1, ow = (wd - kw) / stride + 1;
  std::vector<Tensor> cols = windows2d(x, kh, kw, stride, oh, ow);
  Tensor patches = cols.size() > 1 ? Tensor::stack(cols) : cols[0].unsqueeze(0);
  patches = patches.permute({1, 3, 4, 2, 0}).reshape({n, oh, ow, c * kh * kw});
  Tensor out = patches.matmul(w.reshape({o, c * kh * kw}).T()).permute({0, 3, 1, 2});
  if (bias)
    out = out.add(bias->reshape({1, o, 1, 1}));
  return out;
}

Tensor Tensor::maxPool2d(int64_t k, std::optional<int64_t> strideArg) const {
  if (!ok())
    return *this;
  int64_t stride = strideArg.value_or(k);
  std::string what = "maxPool2d: input " + shapeStr(shape()) + ", kernel " + std::to_string(k) +
                     ", stride " + std::to_string(stride);
  if (ndim() != 4)
    return err(what + ": needs a (N, C, H, W) input");
  if (k < 1 || stride < 1)
    return err(what + ": the kernel and the stride must be >= 1");
  Shape s = shape();
  int64_t n = s[0], c = s[1], h = s[2], w = s[3];
  if (k > h || k > w)
    return err(what + ": the kernel does not fit the " + std::to_string(h) + "x" +
               std::to_string(w) + " input");
  if (stride == k) {
    Tensor t = shrink({{0, n}, {0, c}, {0, h / k * k}, {0, w / k * k}});
    return t.reshape({n, c, h / k, k, w / k, k}).max({3, 5});
  }
  int64_t oh = (h - k) / stride + 1, ow = (w - k) / stride + 1;
  std::vector<Tensor> cols = windows2d(*this, k, k, stride, oh, ow);
  Tensor patches = cols.size() > 1 ? Tensor::stack(cols) : cols[0].unsqueeze(0);
  return patches.max(0);
}

Tensor Tensor::oneHot(int64_t n) const {
  if (!ok())
    return *this;
  return unsqueeze(-1).eq(Tensor::arange(n, *context())).toFloat();
}

Tensor Tensor::crossEntropy(const Tensor &labels) const {
  if (auto e = firstError({this, &labels}))
    return *e;
  if (ndim() != 2 || labels.ndim() != 1 || labels.dtype() != DType::I32 ||
      labels.shape()[0] != shape()[0])
    return err("crossEntropy: needs (B, C) logits and (B,) i32 labels, got " + str() + " and " +
               labels.str());
  return logSoftmax(-1).mul(labels.oneHot(shape().back())).sum(-1).mean().neg();
}

//===----------------------------------------------------------------------===//
// Staging
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
// Autodiff
//===----------------------------------------------------------------------===//

std::optional<Tensor> Tensor::grad() const {
  if (!h)
    return std::nullopt;
  return h->grad;
}
void Tensor::setGrad(std::optional<Tensor> g) {
  if (h)
    h->grad = std::move(g);
}

llvm::Error Tensor::backward(ArrayRef<Tensor> params) const {
  if (!ok())
    return takeError();
  if (!shape().empty())
    return llvm::createStringError("backward: needs a scalar, got " + str());
  for (const Tensor &p : params) {
    if (!p.ok())
      return llvm::createStringError("backward: parameter: " + p.error());
    if (p.context() != context())
      return llvm::createStringError("backward: a parameter of another context");
  }
  // The seed differentiates `getattr(self, "_graph", self.uop)` by each p.uop.
  std::shared_ptr<const TensorNode> rootNode = h->graph ? h->graph : h->node;
  SmallVector<Value> targets;
  std::vector<std::shared_ptr<const TensorNode>> srcs{rootNode};
  for (const Tensor &p : params) {
    targets.push_back(p.value());
    srcs.push_back(sharedNode(p));
  }
  GraphBuilder g(context());
  FailureOr<SmallVector<Value>> grads = muop::gradient(g.b, rootNode->value, targets);
  if (failed(grads)) {
    std::string d = g.c.takeDiagnostics();
    g.eraseFresh();
    return llvm::createStringError("backward: " + (d.empty() ? std::string("no gradient") : d));
  }
  if (auto e = g.consFresh(*grads))
    return llvm::createStringError("backward: " + *e);
  // The seed computes every gradient, then accumulates each.
  for (auto [p, gv] : llvm::zip(params, *grads)) {
    Tensor gt = fromNode(g.node(gv, srcs));
    std::optional<Tensor> old = p.grad();
    Tensor sum = old ? old->add(gt) : gt;
    if (!sum.ok())
      return llvm::createStringError("backward: accumulating into " + p.str() +
                                     "'s grad: " + sum.error());
    p.holder()->grad = sum; // handles share the holder, as Python objects
  }
  return llvm::Error::success();
}

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