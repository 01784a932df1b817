//===- Movement.cpp - movement operations ------------------------*- C++ -*-===//
//
// Operations that move elements without computing on them: broadcasting,
// reshape, permute, expand, shrink, pad, flip, and what the seed composes
// from them (transpose, flatten, squeeze, slice, select, cat, stack).
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include "Uop/IR/UopComposite.h"

#include <algorithm>
#include <numeric>

namespace muop = mlir::uop;

namespace uop {
using namespace mlir;
using namespace detail;

//===----------------------------------------------------------------------===//
// Broadcasting
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

//===----------------------------------------------------------------------===//
// Views and their compositions
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

} // namespace uop
