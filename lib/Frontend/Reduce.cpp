//===- Reduce.cpp - reductions -----------------------------------*- C++ -*-===//
//
// uop.reduce over some axes (sum, max), and the seed's compositions of
// reductions: min, mean, var, softmax, logSoftmax, logsumexp, argmax.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include <numeric>

namespace muop = mlir::uop;

namespace uop {
using namespace mlir;
using namespace detail;

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

} // namespace uop
