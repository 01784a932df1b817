//===- Reduce.cpp - reductions -----------------------------------*- C++ -*-===//
//
// uop.reduce over some axes (sum, max), and what is composed from
// reductions: prod (a tree of multiplications: uop.reduce has no mul), min,
// any, all, mean, var, std, softmax, logSoftmax, softmin, logsumexp,
// normalize, argmax, argmin. A reduction over a zero-sized axis gives its
// identity (PyTorch's: 0, 1, NaN for a mean; an error for max and min).
// The scans and sorting are in Scan.cpp.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include <cmath>
#include <limits>
#include <numeric>

namespace muop = mlir::uop;

namespace uop {
using namespace mlir;
using namespace detail;

//===----------------------------------------------------------------------===//
// Axes
//===----------------------------------------------------------------------===//

/// The axes `ax` of `self` normalized (all when empty; a 0-d tensor takes 0
/// and -1 and has none), or an error tensor.
static llvm::Expected<std::vector<int64_t>> reduceAxes(const Tensor &self,
                                                       const std::vector<int64_t> &ax,
                                                       const char *what) {
  int64_t n = self.ndim();
  std::vector<int64_t> axes;
  if (ax.empty()) {
    axes.resize(n);
    std::iota(axes.begin(), axes.end(), 0);
    return axes;
  }
  std::vector<bool> seen(std::max<int64_t>(n, 1), false);
  for (int64_t a : ax) {
    auto na = normAxis0(a, n);
    if (!na)
      return llvm::createStringError(axisError(what, a, self.shape()));
    if (seen[*na])
      return llvm::createStringError(std::string(what) + ": axis " + std::to_string(a) +
                                     " given twice");
    seen[*na] = true;
    if (n > 0)
      axes.push_back(*na);
  }
  return axes;
}

/// The shape of `self` reduced over `axes` (kept as 1s with keepdim).
static Shape reducedShape(const Shape &s, const std::vector<int64_t> &axes, bool keepdim) {
  Shape out;
  for (int64_t i = 0; i < static_cast<int64_t>(s.size()); ++i) {
    if (!llvm::is_contained(axes, i))
      out.push_back(s[i]);
    else if (keepdim)
      out.push_back(1);
  }
  return out;
}

/// self with `axes` moved to the end (their order kept).
static Tensor axesLast(const Tensor &self, const std::vector<int64_t> &axes) {
  std::vector<int64_t> order;
  for (int64_t i = 0; i < self.ndim(); ++i)
    if (!llvm::is_contained(axes, i))
      order.push_back(i);
  order.insert(order.end(), axes.begin(), axes.end());
  return self.permute(order);
}

/// uop.reduce of `kind` over `ax`; over a zero-sized axis, `identity` (or
/// an error when there is none).
static Tensor reduce(const Tensor &self, muop::ReduceKind kind, const std::vector<int64_t> &ax,
                     bool keepdim, const char *what, std::optional<Scalar> identity) {
  if (!self.ok())
    return self;
  auto axes = reduceAxes(self, ax, what);
  if (!axes)
    return err(llvm::toString(axes.takeError()));
  Shape s = self.shape();
  Shape out = reducedShape(s, *axes, keepdim);
  bool emptyAxis = false;
  for (int64_t a : *axes)
    emptyAxis |= s[a] == 0;
  if (emptyAxis || (self.numel() == 0 && !axes->empty())) {
    if (detail::prod(out) != 0 && !identity)
      return err(std::string(what) + ": cannot reduce over a zero-sized axis of " + shapeStr(s) +
                 " (no identity)");
    return Tensor::full(out, identity.value_or(0), self.dtype(), *self.context());
  }
  if (axes->empty())
    return self.reshape(out);
  Tensor t = axesLast(self, *axes);
  if (!t.ok())
    return t;
  GraphBuilder g(t.context());
  Value v = muop::ReduceOp::create(g.b, g.loc, t.value(),
                                   muop::ReduceKindAttr::get(&t.context()->mlirContext(), kind),
                                   g.b.getI64IntegerAttr(axes->size()));
  Tensor r = g.finish(v, {sharedNode(t)});
  return keepdim ? r.reshape(out) : r;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

Tensor Tensor::sum(const std::vector<int64_t> &axes, bool keepdim) const {
  if (!ok())
    return *this;
  // A bool sum counts (i32); f16 accumulates in f32, as tinygrad's.
  if (dtype() == DType::Bool)
    return cast(DType::I32).sum(axes, keepdim);
  if (dtype() == DType::F16)
    return cast(DType::F32).sum(axes, keepdim).cast(DType::F16);
  return reduce(*this, muop::ReduceKind::Add, axes, keepdim, "sum", Scalar(0));
}
Tensor Tensor::sum(int64_t axis, bool keepdim) const {
  return sum(std::vector<int64_t>{axis}, keepdim);
}

Tensor Tensor::prod(const std::vector<int64_t> &ax, bool keepdim) const {
  if (!ok())
    return *this;
  if (dtype() == DType::Bool)
    return cast(DType::I32).prod(ax, keepdim);
  auto axes = reduceAxes(*this, ax, "prod");
  if (!axes)
    return err(llvm::toString(axes.takeError()));
  Shape s = shape();
  Shape out = reducedShape(s, *axes, keepdim);
  if (axes->empty())
    return reshape(out);
  int64_t n = 1;
  for (int64_t a : *axes)
    n *= s[a];
  if (n == 0 || detail::prod(out) == 0)
    return Tensor::full(out, 1, dtype(), *context());
  // The reduced axes as one last axis, multiplied pairwise until one is
  // left: log2(n) levels of a mul of two halves (an odd count is padded
  // with a 1).
  Tensor t = axesLast(*this, *axes);
  Shape ts = t.shape();
  Shape keep(ts.begin(), ts.end() - axes->size());
  Shape flat = keep;
  flat.push_back(n);
  t = t.reshape(flat);
  std::vector<std::pair<int64_t, int64_t>> bounds;
  for (int64_t d : keep)
    bounds.push_back({0, d});
  while (n > 1) {
    if (n % 2) {
      std::vector<std::pair<int64_t, int64_t>> p(keep.size(), {0, 0});
      p.push_back({0, 1});
      t = t.pad(p, "constant", 1);
      ++n;
    }
    auto lo = bounds, hi = bounds;
    lo.push_back({0, n / 2});
    hi.push_back({n / 2, n});
    t = t.shrink(lo).mul(t.shrink(hi));
    n /= 2;
  }
  return t.reshape(out);
}
Tensor Tensor::prod(int64_t axis, bool keepdim) const {
  return prod(std::vector<int64_t>{axis}, keepdim);
}

/// uop.reduce max: a NaN is kept only when the reduction meets it last
/// (max(a, b) is `b if b > a else a`); softmax and its kin do not care.
static Tensor rawMax(const Tensor &x, const std::vector<int64_t> &axes, bool keepdim) {
  return reduce(x, muop::ReduceKind::Max, axes, keepdim, "max", std::nullopt);
}

// PyTorch's max propagates a NaN: where any is, the max is NaN.
Tensor Tensor::max(const std::vector<int64_t> &axes, bool keepdim) const {
  Tensor m = rawMax(*this, axes, keepdim);
  if (!m.ok() || !isFloat(dtype()))
    return m;
  return isnan().any(axes, keepdim).where(NAN, m);
}
Tensor Tensor::max(int64_t axis, bool keepdim) const {
  return max(std::vector<int64_t>{axis}, keepdim);
}

/// The order-reversing bijection of a dtype: -x, ~x, !x.
static Tensor inverse(const Tensor &x) {
  switch (x.dtype()) {
  case DType::Bool:
    return x.logicalNot();
  case DType::I32:
    return x.bitwiseNot();
  default:
    return x.neg();
  }
}

Tensor Tensor::min(const std::vector<int64_t> &axes, bool keepdim) const {
  if (!ok())
    return *this;
  Tensor inv = inverse(*this);
  Tensor m = reduce(inv, muop::ReduceKind::Max, axes, keepdim, "min", std::nullopt);
  if (!m.ok())
    return m;
  if (isFloat(dtype())) // a NaN is the min (PyTorch's)
    m = inv.isnan().any(axes, keepdim).where(NAN, m);
  return inverse(m);
}
Tensor Tensor::min(int64_t axis, bool keepdim) const {
  return min(std::vector<int64_t>{axis}, keepdim);
}

Tensor Tensor::any(const std::vector<int64_t> &axes, bool keepdim) const {
  if (!ok())
    return *this;
  return reduce(toBool(), muop::ReduceKind::Max, axes, keepdim, "any", Scalar(false));
}
Tensor Tensor::any(int64_t axis, bool keepdim) const {
  return any(std::vector<int64_t>{axis}, keepdim);
}
Tensor Tensor::all(const std::vector<int64_t> &axes, bool keepdim) const {
  if (!ok())
    return *this;
  Tensor a = reduce(toBool().logicalNot(), muop::ReduceKind::Max, axes, keepdim, "all",
                    Scalar(false));
  return a.logicalNot();
}
Tensor Tensor::all(int64_t axis, bool keepdim) const {
  return all(std::vector<int64_t>{axis}, keepdim);
}

/// How many elements `axes` of self reduce (1 for none).
static double countOf(const Tensor &self, const std::vector<int64_t> &axes) {
  Shape s = self.shape();
  if (axes.empty())
    return static_cast<double>(self.numel());
  double n = 1;
  for (int64_t a : axes) {
    auto na = normAxis0(a, self.ndim());
    if (na && self.ndim() > 0)
      n *= static_cast<double>(s[*na]);
  }
  return n;
}

Tensor Tensor::mean(const std::vector<int64_t> &axes, bool keepdim) const {
  if (!ok())
    return *this;
  Tensor s = (isFloat(dtype()) ? *this : toFloat()).sum(axes, keepdim);
  if (!s.ok())
    return s;
  double n = countOf(*this, axes);
  // 0 / 0 is NaN: the mean of nothing (PyTorch's).
  return s.mul(n == 0 ? std::numeric_limits<double>::quiet_NaN() : 1.0 / n);
}
Tensor Tensor::mean(int64_t axis, bool keepdim) const {
  return mean(std::vector<int64_t>{axis}, keepdim);
}
Tensor Tensor::var(const std::vector<int64_t> &axes, bool keepdim, double correction) const {
  if (!ok())
    return *this;
  Tensor x = isFloat(dtype()) ? *this : toFloat();
  Tensor sq = x.sub(x.mean(axes, true)).square();
  if (correction == 0) // the population variance: the seed's composition
    return sq.mean(axes, keepdim);
  Tensor s = sq.sum(axes, keepdim);
  if (!s.ok())
    return s;
  // Bessel's n - correction, at least 0: x / 0 is inf, 0 / 0 NaN (and so
  // is the gradient, as PyTorch's).
  double d = std::max(countOf(*this, axes) - correction, 0.0);
  return s.mul(d > 0 ? 1.0 / d : INFINITY);
}
Tensor Tensor::var(int64_t axis, bool keepdim, double correction) const {
  return var(std::vector<int64_t>{axis}, keepdim, correction);
}
Tensor Tensor::std(const std::vector<int64_t> &axes, bool keepdim, double correction) const {
  return var(axes, keepdim, correction).sqrt();
}
Tensor Tensor::std(int64_t axis, bool keepdim, double correction) const {
  return std(std::vector<int64_t>{axis}, keepdim, correction);
}

Tensor Tensor::softmax(int64_t axis) const {
  Tensor x = ok() && !isFloat(dtype()) ? toFloat() : *this;
  Tensor e = x.sub(rawMax(x, {axis}, true)).exp();
  return e.div(e.sum(axis, true));
}
Tensor Tensor::logSoftmax(int64_t axis) const {
  Tensor x = ok() && !isFloat(dtype()) ? toFloat() : *this;
  Tensor m = x.sub(rawMax(x, {axis}, true));
  return m.sub(m.exp().sum(axis, true).log());
}
Tensor Tensor::softmin(int64_t axis) const {
  Tensor x = ok() && !isFloat(dtype()) ? toFloat() : *this;
  return x.neg().softmax(axis);
}
Tensor Tensor::logsumexp(const std::vector<int64_t> &axes, bool keepdim) const {
  if (!ok())
    return *this;
  Tensor x = isFloat(dtype()) ? *this : toFloat();
  if (x.numel() == 0) { // log of an empty sum: -inf (PyTorch's)
    auto ax = reduceAxes(x, axes, "logsumexp");
    if (!ax)
      return err(llvm::toString(ax.takeError()));
    return Tensor::full(reducedShape(x.shape(), *ax, keepdim), -INFINITY, x.dtype(), *context());
  }
  Tensor m = rawMax(x, axes, true);
  if (!m.ok())
    return m;
  // A max of +-inf: exp(x - m) would be NaN; the sum of exps is then that
  // infinity's (or the -inf of no mass).
  Tensor ms = m.isinf().where(0.0, m);
  Tensor r = x.sub(ms).exp().sum(axes, true).log().add(ms);
  if (keepdim || !r.ok())
    return r;
  auto ax = reduceAxes(x, axes, "logsumexp");
  if (!ax)
    return err(llvm::toString(ax.takeError()));
  return r.reshape(reducedShape(x.shape(), *ax, false));
}
Tensor Tensor::logsumexp(int64_t axis, bool keepdim) const {
  return logsumexp(std::vector<int64_t>{axis}, keepdim);
}
Tensor Tensor::normalize(double p, int64_t dim, double eps) const {
  if (!ok())
    return *this;
  Tensor x = isFloat(dtype()) ? *this : toFloat();
  Tensor den = p == 0 ? x.ne(0).sum(dim, true).toFloat()
                      : x.abs().pow(p).sum(dim, true).pow(1.0 / p);
  return x.div(den.maximum(eps));
}

Tensor Tensor::argmax(std::optional<int64_t> axis, bool keepdim) const {
  if (!ok())
    return *this;
  if (!axis) {
    Tensor r = flatten().argmax(0);
    return keepdim ? r.reshape(Shape(ndim(), 1)) : r;
  }
  auto a = normAxis0(*axis, ndim());
  if (!a)
    return err(axisError("argmax", *axis, shape()));
  if (ndim() == 0)
    return Tensor::zeros({}, DType::I32, *context());
  int64_t n = shape()[*a];
  if (n == 0)
    return err("argmax: cannot reduce over the zero-sized axis " + std::to_string(*axis) + " of " +
               shapeStr(shape()));
  Shape is{n};
  is.resize(ndim() - *a, 1);
  Tensor idx = Tensor::arange(n, *context()).reshape(is);
  // The first maximum, or the first NaN (PyTorch's: NaN is the largest).
  Tensor isMax = eq(rawMax(*this, {*a}, true));
  if (isFloat(dtype()))
    isMax = isMax.logicalOr(isnan());
  Tensor r = isMax.where(idx.rsub(n), 0).max(*a).mul(-1).add(n);
  return keepdim ? r.unsqueeze(*a) : r;
}
Tensor Tensor::argmin(std::optional<int64_t> axis, bool keepdim) const {
  if (!ok())
    return *this;
  if (axis && !normAxis0(*axis, ndim()))
    return err(axisError("argmin", *axis, shape()));
  return inverse(*this).argmax(axis, keepdim);
}

} // namespace uop
