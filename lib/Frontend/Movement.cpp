//===- Movement.cpp - movement operations ------------------------*- C++ -*-===//
//
// Operations that move elements without computing on them: broadcasting,
// reshape, permute, expand, shrink, pad (with its modes), flip, and what is
// composed from them (transpose, flatten, unflatten, squeeze, slices with
// steps, select, cat, stack, split, chunk, unfold, roll, repeat,
// repeatInterleave). Indexing by tensors (index, gather, scatter, the
// triangles and diagonals, interpolate) is in Indexing.cpp.
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
  if (detail::prod(to) != numel())
    return err("cannot reshape " + shapeStr(s) + " to " + shapeStr(target) + ": element counts " +
               std::to_string(numel()) + " vs " + std::to_string(detail::prod(to)));
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
  auto x = normAxis0(a, ndim()), y = normAxis0(b, ndim());
  if (!x || !y)
    return err(axisError("transpose", !x ? a : b, shape()));
  if (ndim() == 0) // PyTorch's transpose(0, -1) of a 0-d tensor
    return *this;
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

Tensor Tensor::flatten(int64_t start, int64_t end) const {
  if (!ok())
    return *this;
  int64_t n = ndim();
  if (n == 0) {
    if (!normAxis0(start, 0) || !normAxis0(end, 0))
      return err(axisError("flatten", normAxis0(start, 0) ? end : start, shape()));
    return reshape({1});
  }
  auto s0 = normAxis(start, n), e0 = normAxis(end, n);
  if (!s0 || !e0)
    return err(axisError("flatten", !s0 ? start : end, shape()));
  if (*s0 > *e0)
    return err("flatten: start axis " + std::to_string(start) + " is after end axis " +
               std::to_string(end) + " of " + shapeStr(shape()));
  Shape s = shape();
  Shape to(s.begin(), s.begin() + *s0);
  to.push_back(detail::prod(llvm::ArrayRef<int64_t>(s).slice(*s0, *e0 - *s0 + 1)));
  to.insert(to.end(), s.begin() + *e0 + 1, s.end());
  return reshape(to);
}

Tensor Tensor::unflatten(int64_t dim, const Shape &sizes) const {
  if (!ok())
    return *this;
  auto a = normAxis(dim, ndim());
  if (!a)
    return err(axisError("unflatten", dim, shape()));
  Shape s = shape();
  Shape to(s.begin(), s.begin() + *a);
  Shape part = sizes;
  int unknown = -1;
  int64_t known = 1;
  for (auto [i, d] : llvm::enumerate(part)) {
    if (d == -1 && unknown < 0)
      unknown = i;
    else
      known *= d;
  }
  if (unknown >= 0 && known != 0 && s[*a] % known == 0)
    part[unknown] = s[*a] / known;
  if (detail::prod(part) != s[*a])
    return err("unflatten: sizes " + shapeStr(sizes) + " do not multiply to " +
               std::to_string(s[*a]) + ", axis " + std::to_string(dim) + " of " + shapeStr(s));
  to.insert(to.end(), part.begin(), part.end());
  to.insert(to.end(), s.begin() + *a + 1, s.end());
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
  auto a = normAxis0(d, ndim());
  if (!a)
    return err(axisError("squeeze", d, shape()));
  Shape s = shape();
  if (s.empty() || s[*a] != 1)
    return *this;
  s.erase(s.begin() + *a);
  return reshape(s);
}

Tensor Tensor::squeeze() const {
  if (!ok())
    return *this;
  Shape s;
  for (int64_t d : shape())
    if (d != 1)
      s.push_back(d);
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

Tensor Tensor::slice(int64_t axis, const Slice &sl) const {
  if (!ok())
    return *this;
  auto a = normAxis(axis, ndim());
  if (!a)
    return err(axisError("slice", axis, shape()));
  if (sl.step == 0)
    return err("slice: the step must not be zero");
  int64_t n = shape()[*a], step = sl.step;
  // Python's slice.indices(n).
  int64_t start, stop;
  if (step > 0) {
    auto clamp = [n](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + n : i, 0, n); };
    start = sl.start ? clamp(*sl.start) : 0;
    stop = sl.stop ? clamp(*sl.stop) : n;
  } else {
    auto clamp = [n](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + n : i, -1, n - 1); };
    start = sl.start ? clamp(*sl.start) : n - 1;
    stop = sl.stop ? clamp(*sl.stop) : -1;
  }
  int64_t count = step > 0 ? std::max<int64_t>(0, (stop - start + step - 1) / step)
                           : std::max<int64_t>(0, (start - stop - step - 1) / -step);
  Tensor x = *this;
  int64_t first = start, st = step;
  if (step < 0) {
    // Backward: the forward slice of the flipped axis.
    x = x.flip(*a);
    first = n - 1 - start;
    st = -step;
  }
  Shape s = x.shape();
  std::vector<std::pair<int64_t, int64_t>> bounds;
  for (int64_t d : s)
    bounds.push_back({0, d});
  if (count == 0) {
    bounds[*a] = {0, 0};
    return x.shrink(bounds);
  }
  bounds[*a] = {first, first + (count - 1) * st + 1};
  x = x.shrink(bounds);
  if (st == 1)
    return x;
  // Every st-th element: pad to count * st, split the axis into (count, st)
  // and keep element 0.
  std::vector<std::pair<int64_t, int64_t>> p(s.size(), {0, 0});
  p[*a] = {0, count * st - x.shape()[*a]};
  x = x.pad(p);
  Shape split = x.shape();
  split[*a] = st;
  split.insert(split.begin() + *a, count);
  x = x.reshape(split);
  std::vector<std::pair<int64_t, int64_t>> b2;
  for (int64_t d : split)
    b2.push_back({0, d});
  b2[*a + 1] = {0, 1};
  Shape out = x.shape();
  out.erase(out.begin() + *a + 1);
  return x.shrink(b2).reshape(out);
}

/// Constant padding by non-negative amounts: zeros through the composite
/// pad; another value by a where over a padded mask (tinygrad's).
static Tensor padConstant(const Tensor &x, const std::vector<std::pair<int64_t, int64_t>> &pads,
                          Scalar value) {
  bool any = false;
  Shape out = x.shape();
  for (auto [i, p] : llvm::enumerate(pads)) {
    any |= p.first || p.second;
    out[i] += p.first + p.second;
  }
  if (!any)
    return x;
  if (x.numel() == 0 || detail::prod(out) == 0)
    return Tensor::full(out, value, x.dtype(), *x.context());
  GraphBuilder g(x.context());
  SmallVector<std::pair<int64_t, int64_t>> p(pads.begin(), pads.end());
  Tensor base = g.finish(muop::pad(g.b, g.loc, x.value(), p), {sharedNode(x)});
  if (value.value == 0 && !std::signbit(value.value))
    return base;
  Tensor mask = Tensor::full(x.shape(), true, DType::Bool, *x.context()).pad(pads);
  return mask.where(base, scalarOf(x, value, x.dtype()));
}

Tensor Tensor::pad(const std::vector<std::pair<int64_t, int64_t>> &pads, const std::string &mode,
                   Scalar value) const {
  if (!ok())
    return *this;
  if (pads.size() != shape().size())
    return err("pad: " + std::to_string(pads.size()) + " (before, after) pairs for shape " +
               shapeStr(shape()));
  if (mode != "constant" && mode != "reflect" && mode != "replicate" && mode != "circular")
    return err("pad: mode \"" + mode +
               "\" is not one of \"constant\", \"reflect\", \"replicate\", \"circular\"");
  Shape s = shape();
  // Negative amounts remove elements (before any padding for constant and
  // circular; after it for reflect and replicate, which read the whole axis).
  std::vector<std::pair<int64_t, int64_t>> cut, grow;
  bool negative = false;
  for (auto [i, p] : llvm::enumerate(pads)) {
    int64_t b = -std::min<int64_t>(p.first, 0), e = s[i] + std::min<int64_t>(p.second, 0);
    if (b > e || s[i] + p.first + p.second < 0)
      return err("pad: padding (" + std::to_string(p.first) + ", " + std::to_string(p.second) +
                 ") of axis " + std::to_string(i) + " of " + shapeStr(s) +
                 " leaves a negative size");
    negative |= p.first < 0 || p.second < 0;
    cut.push_back({b, e});
    grow.push_back({std::max<int64_t>(p.first, 0), std::max<int64_t>(p.second, 0)});
  }
  if (mode == "constant")
    return padConstant(negative ? shrink(cut) : *this, grow, value);
  if (mode == "circular") {
    Tensor x = negative ? shrink(cut) : *this;
    for (auto [i, p] : llvm::enumerate(grow)) {
      int64_t n = x.shape()[i];
      if (p.first > n || p.second > n)
        return err("pad: circular padding (" + std::to_string(p.first) + ", " +
                   std::to_string(p.second) + ") of axis " + std::to_string(i) + " of " +
                   shapeStr(x.shape()) + " wraps around more than once");
      if (!p.first && !p.second)
        continue;
      std::vector<Tensor> pieces;
      if (p.first)
        pieces.push_back(x.slice(i, n - p.first, n));
      pieces.push_back(x);
      if (p.second)
        pieces.push_back(x.slice(i, 0, p.second));
      x = Tensor::cat(pieces, i);
    }
    return x;
  }
  Tensor x = *this;
  for (size_t i = 0; i < grow.size(); ++i) {
    auto p = grow[i];
    int64_t n = x.shape()[i];
    if (!p.first && !p.second)
      continue;
    std::vector<Tensor> pieces;
    if (mode == "reflect") {
      if (p.first >= n || p.second >= n)
        return err("pad: reflect padding (" + std::to_string(p.first) + ", " +
                   std::to_string(p.second) + ") of axis " + std::to_string(i) +
                   " must be less than its size " + std::to_string(n));
      if (p.first)
        pieces.push_back(x.slice(i, Slice(p.first, 0, -1)));
      pieces.push_back(x);
      if (p.second)
        pieces.push_back(x.slice(i, Slice(n - 2,
                                          n - 2 - p.second >= 0
                                              ? std::optional<int64_t>(n - 2 - p.second)
                                              : std::nullopt,
                                          -1)));
    } else {
      if (n == 0)
        return err("pad: cannot replicate the zero-sized axis " + std::to_string(i) + " of " +
                   shapeStr(x.shape()));
      auto edge = [&](int64_t at, int64_t count) {
        Tensor e = x.slice(i, at, at + 1);
        Shape to = e.shape();
        to[i] = count;
        return e.expand(to);
      };
      if (p.first)
        pieces.push_back(edge(0, p.first));
      pieces.push_back(x);
      if (p.second)
        pieces.push_back(edge(n - 1, p.second));
    }
    x = Tensor::cat(pieces, i);
  }
  if (!negative)
    return x;
  std::vector<std::pair<int64_t, int64_t>> after;
  for (auto [i, p] : llvm::enumerate(pads)) {
    int64_t n = x.shape()[i];
    after.push_back({-std::min<int64_t>(p.first, 0), n + std::min<int64_t>(p.second, 0)});
  }
  return x.shrink(after);
}

Tensor Tensor::padFlat(const std::vector<int64_t> &flat, const std::string &mode,
                       Scalar value) const {
  if (!ok())
    return *this;
  if (flat.size() % 2 || static_cast<int64_t>(flat.size() / 2) > ndim())
    return err("padFlat: " + std::to_string(flat.size()) +
               " flat paddings: need an even number, two per axis at most for shape " +
               shapeStr(shape()));
  std::vector<std::pair<int64_t, int64_t>> pads(ndim(), {0, 0});
  for (size_t k = 0; k < flat.size() / 2; ++k)
    pads[ndim() - 1 - k] = {flat[2 * k], flat[2 * k + 1]};
  return pad(pads, mode, value);
}

// y[i] = sum_j where(i + j == n - 1, x[j], 0): a select, not the seed's
// multiply by an anti-identity (inf * 0 would be NaN), in one reduce.
Tensor Tensor::flip(int64_t axis) const {
  if (!ok())
    return *this;
  auto a = normAxis0(axis, ndim());
  if (!a)
    return err(axisError("flip", axis, shape()));
  if (ndim() == 0 || shape()[*a] <= 1 || numel() == 0)
    return *this;
  int64_t n = shape()[*a];
  Tensor x = transpose(*a, -1);
  Tensor j = Tensor::arange(n, *context());
  Tensor anti = j.unsqueeze(-1).add(j).eq(n - 1); // [i, j]
  Tensor src = dtype() == DType::Bool ? x.cast(DType::I32) : x;
  Tensor y = anti.where(src.unsqueeze(-2), 0).sum(-1);
  if (dtype() == DType::Bool)
    y = y.cast(DType::Bool);
  return y.transpose(*a, -1);
}
Tensor Tensor::flip(const std::vector<int64_t> &axes) const {
  Tensor x = *this;
  std::vector<bool> seen(std::max<int64_t>(ndim(), 1), false);
  for (int64_t a : axes) {
    if (!x.ok())
      return x;
    auto na = normAxis0(a, ndim());
    if (!na)
      return err(axisError("flip", a, shape()));
    if (seen[*na])
      return err("flip: axis " + std::to_string(a) + " given twice");
    seen[*na] = true;
    x = x.flip(*na);
  }
  return x;
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
  DType dt = ts[0].dtype();
  int64_t total = 0;
  for (const Tensor &t : ts) {
    Shape s = t.shape();
    bool same = s.size() == s0.size();
    for (size_t i = 0; same && i < s.size(); ++i)
      same = i == static_cast<size_t>(*d) || s[i] == s0[i];
    if (!same)
      return err("cat: " + t.str() + " does not fit " + ts[0].str() + " along axis " +
                 std::to_string(dim));
    total += s[*d];
    dt = promoteTypes(dt, t.dtype());
  }
  Shape out = s0;
  out[*d] = total;
  if (detail::prod(out) == 0)
    return Tensor::zeros(out, dt, *ts[0].context());
  std::optional<Tensor> sum;
  int64_t off = 0;
  for (const Tensor &t : ts) {
    int64_t n = t.shape()[*d];
    if (n == 0)
      continue;
    std::vector<std::pair<int64_t, int64_t>> p(s0.size(), {0, 0});
    p[*d] = {off, total - off - n};
    Tensor piece = t.cast(dt).pad(p);
    // Bools: or (an add of i1 would be xor).
    sum = !sum ? piece : dt == DType::Bool ? sum->logicalOr(piece) : sum->add(piece);
    off += n;
  }
  return *sum;
}

Tensor Tensor::stack(ArrayRef<Tensor> ts, int64_t dim) {
  if (ts.empty())
    return err("stack: no tensors");
  std::vector<std::shared_ptr<const TensorNode>> srcs;
  SmallVector<Value> vals;
  DType dt = ts[0].dtype();
  for (const Tensor &t : ts) {
    if (auto e = firstError({&ts[0], &t}))
      return *e;
    if (t.shape() != ts[0].shape())
      return err("stack: " + t.str() + " and " + ts[0].str() + " differ in shape");
    dt = promoteTypes(dt, t.dtype());
  }
  auto d = normAxis(dim, ts[0].ndim() + 1);
  if (!d)
    return err(axisError("stack", dim, ts[0].shape()));
  if (ts[0].numel() == 0) {
    Shape out = ts[0].shape();
    out.insert(out.begin() + *d, static_cast<int64_t>(ts.size()));
    return Tensor::zeros(out, dt, *ts[0].context());
  }
  std::vector<Tensor> same;
  for (const Tensor &t : ts)
    same.push_back(t.cast(dt));
  for (const Tensor &t : same) {
    if (!t.ok())
      return t;
    srcs.push_back(sharedNode(t));
    vals.push_back(t.value());
  }
  GraphBuilder g(ts[0].context());
  Value v = muop::StackOp::create(g.b, g.loc, vals);
  v = muop::moveAxis(g.b, g.loc, v, 0, *d);
  return g.finish(v, std::move(srcs));
}

std::vector<Tensor> Tensor::split(const std::vector<int64_t> &sizes, int64_t dim) const {
  if (!ok())
    return {*this};
  auto a = normAxis(dim, ndim());
  if (!a)
    return {err(axisError("split", dim, shape()))};
  int64_t n = shape()[*a], total = 0;
  for (int64_t s : sizes) {
    if (s < 0)
      return {err("split: negative size " + std::to_string(s))};
    total += s;
  }
  if (total != n)
    return {err("split: sizes " + shapeStr(sizes) + " sum to " + std::to_string(total) +
                ", not to the " + std::to_string(n) + " of axis " + std::to_string(dim) + " of " +
                shapeStr(shape()))};
  std::vector<Tensor> out;
  int64_t off = 0;
  for (int64_t s : sizes) {
    out.push_back(slice(*a, off, off + s));
    off += s;
  }
  return out;
}
std::vector<Tensor> Tensor::split(int64_t size, int64_t dim) const {
  if (!ok())
    return {*this};
  auto a = normAxis(dim, ndim());
  if (!a)
    return {err(axisError("split", dim, shape()))};
  if (size <= 0)
    return {err("split: the size must be positive, got " + std::to_string(size))};
  int64_t n = shape()[*a];
  std::vector<int64_t> sizes;
  for (int64_t i = 0; i < std::max<int64_t>(n, 1); i += size)
    sizes.push_back(std::min(size, n - i));
  return split(sizes, dim);
}
std::vector<Tensor> Tensor::chunk(int64_t chunks, int64_t dim) const {
  if (!ok())
    return {*this};
  if (chunks <= 0)
    return {err("chunk: the number of chunks must be positive, got " + std::to_string(chunks))};
  auto a = normAxis(dim, ndim());
  if (!a)
    return {err(axisError("chunk", dim, shape()))};
  int64_t n = shape()[*a];
  if (n == 0)
    return split(std::vector<int64_t>(chunks, 0), dim);
  return split((n + chunks - 1) / chunks, dim);
}

Tensor Tensor::unfold(int64_t dim, int64_t size, int64_t step) const {
  if (!ok())
    return *this;
  auto a = normAxis0(dim, ndim());
  if (!a)
    return err(axisError("unfold", dim, shape()));
  int64_t n = ndim() == 0 ? 1 : shape()[*a];
  if (size < 0 || step <= 0 || size > n)
    return err("unfold: size " + std::to_string(size) + " and step " + std::to_string(step) +
               " do not fit the " + std::to_string(n) + " elements of axis " +
               std::to_string(dim) + " (0 <= size <= " + std::to_string(n) + ", step > 0)");
  if (ndim() == 0)
    return reshape({size});
  int64_t windows = (n - size) / step + 1;
  // One shrink per window offset k: the elements k, k + step, ... (a
  // strided slice), stacked on a new last axis.
  std::vector<Tensor> cols;
  for (int64_t k = 0; k < size; ++k)
    cols.push_back(slice(*a, Slice(k, k + (windows - 1) * step + 1, step)));
  if (cols.empty()) {
    Shape out = shape();
    out[*a] = windows;
    out.push_back(0);
    return Tensor::zeros(out, dtype(), *context());
  }
  return Tensor::stack(cols, -1);
}

Tensor Tensor::roll(const std::vector<int64_t> &shifts, const std::vector<int64_t> &dims) const {
  if (!ok())
    return *this;
  if (dims.empty()) {
    if (shifts.size() != 1)
      return err("roll: " + std::to_string(shifts.size()) + " shifts for the flattened tensor");
    return flatten().roll(shifts, {0}).reshape(shape());
  }
  if (shifts.size() != dims.size())
    return err("roll: " + std::to_string(shifts.size()) + " shifts for " +
               std::to_string(dims.size()) + " axes");
  Tensor x = *this;
  for (auto [sh, d] : llvm::zip(shifts, dims)) {
    auto a = normAxis0(d, ndim());
    if (!a)
      return err(axisError("roll", d, shape()));
    if (ndim() == 0 || numel() == 0)
      continue;
    int64_t n = shape()[*a];
    int64_t k = ((sh % n) + n) % n;
    if (k == 0)
      continue;
    x = Tensor::cat({x.slice(*a, n - k, n), x.slice(*a, 0, n - k)}, *a);
  }
  return x;
}
Tensor Tensor::roll(int64_t shift, std::optional<int64_t> dim) const {
  return roll(std::vector<int64_t>{shift},
              dim ? std::vector<int64_t>{*dim} : std::vector<int64_t>{});
}

Tensor Tensor::repeat(const std::vector<int64_t> &repeats) const {
  if (!ok())
    return *this;
  if (static_cast<int64_t>(repeats.size()) < ndim())
    return err("repeat: " + std::to_string(repeats.size()) + " repeats for the " +
               std::to_string(ndim()) + " axes of " + shapeStr(shape()));
  for (int64_t r : repeats)
    if (r < 0)
      return err("repeat: negative repeat " + std::to_string(r));
  Shape base(repeats.size() - ndim(), 1);
  Shape s = shape();
  base.insert(base.end(), s.begin(), s.end());
  // (r0, s0, r1, s1, ...): a new axis before each, expanded, merged.
  Shape unsq, expd, fin;
  for (auto [r, d] : llvm::zip(repeats, base)) {
    unsq.push_back(1), unsq.push_back(d);
    expd.push_back(r), expd.push_back(d);
    fin.push_back(r * d);
  }
  if (detail::prod(fin) == 0)
    return Tensor::zeros(fin, dtype(), *context());
  return reshape(unsq).expand(expd).reshape(fin);
}

Tensor Tensor::repeatInterleave(int64_t repeats, std::optional<int64_t> dim) const {
  if (!ok())
    return *this;
  if (repeats < 0)
    return err("repeatInterleave: negative repeats " + std::to_string(repeats));
  if (!dim)
    return flatten().repeatInterleave(repeats, 0);
  auto a = normAxis0(*dim, ndim());
  if (!a)
    return err(axisError("repeatInterleave", *dim, shape()));
  if (ndim() == 0)
    return reshape({1}).repeatInterleave(repeats, 0);
  Shape s = shape();
  Shape unsq = s, expd = s, fin = s;
  unsq.insert(unsq.begin() + *a + 1, 1);
  expd.insert(expd.begin() + *a + 1, repeats);
  fin[*a] *= repeats;
  if (detail::prod(fin) == 0)
    return Tensor::zeros(fin, dtype(), *context());
  return reshape(unsq).expand(expd).reshape(fin);
}

} // namespace uop
