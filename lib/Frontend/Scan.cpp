//===- Scan.cpp - scans and sorting ------------------------------*- C++ -*-===//
//
// Inclusive scans (cumsum, cumprod, cummax, cummin, logcumsumexp) and
// sorting (sort, argsort, topk), as compositions:
//   - a scan is Hillis and Steele's: log2(n) steps of x op shift(x, 2^k),
//     the shift a shrink and a pad with op's identity, so the graph grows
//     with log n and every step has its gradient rule;
//   - a sort ranks every element against every other (O(n^2) comparisons
//     in one fused kernel, ties broken by position: stable) and gathers
//     value k from the element of rank k with a where and a sum, which is
//     exact (inf and NaN included) and differentiable.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include <cmath>
#include <limits>

namespace uop {
using namespace mlir;
using namespace detail;

/// `x` with axis `a` (normalized) moved last, and back.
static Tensor moveLast(const Tensor &x, int64_t a) {
  std::vector<int64_t> order;
  for (int64_t i = 0; i < x.ndim(); ++i)
    if (i != a)
      order.push_back(i);
  order.push_back(a);
  return x.permute(order);
}
static Tensor moveBack(const Tensor &x, int64_t a) {
  int64_t n = x.ndim();
  std::vector<int64_t> order;
  for (int64_t i = 0; i < n - 1; ++i) {
    if (i == a)
      order.push_back(n - 1);
    order.push_back(i);
  }
  if (a == n - 1)
    order.push_back(n - 1);
  return x.permute(order);
}

namespace {
enum class ScanOp { Add, Mul, Max };
}

/// The inclusive scan of the last axis of x: x[i] op= x[i - 2^k] for
/// k = 0, 1, ... (the shifted operand padded with `identity`).
static Tensor scanLast(Tensor x, ScanOp op, Scalar identity) {
  Shape s = x.shape();
  int64_t n = s.back();
  std::vector<std::pair<int64_t, int64_t>> keep;
  for (size_t i = 0; i + 1 < s.size(); ++i)
    keep.push_back({0, s[i]});
  for (int64_t k = 1; k < n; k *= 2) {
    auto b = keep;
    b.push_back({0, n - k});
    std::vector<std::pair<int64_t, int64_t>> p(keep.size(), {0, 0});
    p.push_back({k, 0});
    Tensor shifted = x.shrink(b).pad(p, "constant", identity);
    switch (op) {
    case ScanOp::Add:
      x = x.add(shifted);
      break;
    case ScanOp::Mul:
      x = x.mul(shifted);
      break;
    case ScanOp::Max:
      x = x.maximum(shifted);
      break;
    }
  }
  return x;
}

/// A scan of `self` along `axis`.
static Tensor scan(const Tensor &self, int64_t axis, ScanOp op, Scalar identity, const char *what) {
  if (!self.ok())
    return self;
  auto a = normAxis0(axis, self.ndim());
  if (!a)
    return err(axisError(what, axis, self.shape()));
  if (self.ndim() == 0 || self.numel() == 0)
    return self;
  return moveBack(scanLast(moveLast(self, *a), op, identity), *a);
}

/// The smallest value of a dtype (max's identity).
static Scalar lowest(DType d) {
  switch (d) {
  case DType::Bool:
    return Scalar(false);
  case DType::I32:
    return Scalar(std::numeric_limits<int32_t>::min());
  default:
    return Scalar(-INFINITY);
  }
}

Tensor Tensor::cumsum(int64_t axis) const {
  if (!ok())
    return *this;
  if (dtype() == DType::Bool)
    return cast(DType::I32).cumsum(axis);
  if (dtype() == DType::F16)
    return cast(DType::F32).cumsum(axis).cast(DType::F16);
  return scan(*this, axis, ScanOp::Add, 0, "cumsum");
}
Tensor Tensor::cumprod(int64_t axis) const {
  if (!ok())
    return *this;
  if (dtype() == DType::Bool)
    return cast(DType::I32).cumprod(axis);
  return scan(*this, axis, ScanOp::Mul, 1, "cumprod");
}

std::pair<Tensor, Tensor> Tensor::cummax(int64_t axis) const {
  if (!ok())
    return {*this, *this};
  Tensor values = scan(*this, axis, ScanOp::Max, lowest(dtype()), "cummax");
  if (!values.ok())
    return {values, values};
  if (ndim() == 0 || numel() == 0)
    return {values, zerosLike(DType::I32)};
  int64_t a = *normAxis0(axis, ndim());
  // The index of the last j <= i where x[j] is the running max at i.
  Tensor x = moveLast(*this, a), v = moveLast(values, a);
  int64_t n = x.shape().back();
  Tensor j = Tensor::arange(n, *context());
  Tensor before = j.unsqueeze(-1).ge(j); // [i, j]: j <= i
  Tensor match = x.unsqueeze(-2).eq(v.unsqueeze(-1)).logicalAnd(before);
  Tensor idx = match.where(j, -1).max(-1);
  return {values, moveBack(idx, a)};
}
std::pair<Tensor, Tensor> Tensor::cummin(int64_t axis) const {
  if (!ok())
    return {*this, *this};
  Tensor inv = dtype() == DType::Bool ? logicalNot() : dtype() == DType::I32 ? bitwiseNot() : neg();
  auto [v, i] = inv.cummax(axis);
  Tensor back = dtype() == DType::Bool ? v.logicalNot() : dtype() == DType::I32 ? v.bitwiseNot() : v.neg();
  return {back, i};
}

Tensor Tensor::logcumsumexp(int64_t axis) const {
  if (!ok())
    return *this;
  Tensor x = isFloat(dtype()) ? *this : toFloat();
  auto a = normAxis0(axis, x.ndim());
  if (!a)
    return err(axisError("logcumsumexp", axis, shape()));
  if (x.ndim() == 0 || x.numel() == 0)
    return x;
  // log(sum_{j <= i} exp(x[j] - m[i])) + m[i], m the running max (no
  // gradient: it cancels), over a (i, j) mask.
  Tensor xl = moveLast(x, *a);
  int64_t n = xl.shape().back();
  Tensor m = scan(xl, -1, ScanOp::Max, -INFINITY, "logcumsumexp").detach();
  Tensor ms = m.isinf().where(0.0, m);
  Tensor j = Tensor::arange(n, *context());
  Tensor before = j.unsqueeze(-1).ge(j);
  Tensor terms = before.where(xl.unsqueeze(-2).sub(ms.unsqueeze(-1)), -INFINITY);
  Tensor r = terms.exp().sum(-1).log().add(ms);
  return moveBack(r, *a);
}

std::pair<Tensor, Tensor> Tensor::sort(int64_t dim, bool descending) const {
  if (!ok())
    return {*this, *this};
  auto a = normAxis0(dim, ndim());
  if (!a)
    return {err(axisError("sort", dim, shape())), err(axisError("sort", dim, shape()))};
  if (ndim() == 0 || numel() == 0 || shape()[*a] == 1)
    return {*this, zerosLike(DType::I32)};
  Tensor x = moveLast(*this, *a);
  int64_t n = x.shape().back();
  // xi[..., i, 1] against xj[..., 1, j]: j sorts before i when its value
  // does (NaN last ascending, first descending, as PyTorch's), or when the
  // values are equal and j < i.
  Tensor xi = x.unsqueeze(-1), xj = x.unsqueeze(-2);
  Tensor ni = xi.isnan(), nj = xj.isnan();
  Tensor less = descending ? xj.gt(xi).logicalOr(nj.logicalAnd(ni.logicalNot()))
                           : xj.lt(xi).logicalOr(ni.logicalAnd(nj.logicalNot()));
  Tensor same = xj.eq(xi).logicalOr(ni.logicalAnd(nj));
  Tensor pos = Tensor::arange(n, *context());
  Tensor earlier = pos.unsqueeze(-1).gt(pos); // [i, j]: j < i
  Tensor rank = less.logicalOr(same.logicalAnd(earlier)).sum(-1); // (..., n) i32
  // Output k takes the element whose rank is k: [..., k, i].
  Tensor hit = rank.unsqueeze(-2).eq(pos.unsqueeze(-1));
  Tensor src = dtype() == DType::Bool ? x.cast(DType::I32) : x;
  Tensor values = hit.where(src.unsqueeze(-2), 0).sum(-1);
  if (dtype() == DType::Bool)
    values = values.cast(DType::Bool);
  Tensor indices = hit.where(pos, 0).sum(-1);
  return {moveBack(values, *a), moveBack(indices, *a)};
}
Tensor Tensor::argsort(int64_t dim, bool descending) const { return sort(dim, descending).second; }

std::pair<Tensor, Tensor> Tensor::topk(int64_t k, int64_t dim, bool largest) const {
  if (!ok())
    return {*this, *this};
  auto a = normAxis0(dim, ndim());
  if (!a) {
    Tensor e = err(axisError("topk", dim, shape()));
    return {e, e};
  }
  int64_t n = ndim() == 0 ? 1 : shape()[*a];
  if (k < 0 || k > n) {
    Tensor e = err("topk: k = " + std::to_string(k) + " is out of range for the " +
                   std::to_string(n) + " elements of axis " + std::to_string(dim) + " of " +
                   shapeStr(shape()));
    return {e, e};
  }
  auto [v, i] = sort(dim, largest);
  if (ndim() == 0)
    return {v, i};
  return {v.slice(*a, 0, k), i.slice(*a, 0, k)};
}

} // namespace uop
