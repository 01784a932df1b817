//===- Indexing.cpp - indexing by tensors and masks --------------*- C++ -*-===//
//
// Python indexing (Tensor::index), gather, scatter and scatterReduce,
// maskedSelect, interpolate, the triangles (tril, triu) and diagonals
// (diag, diagonal). Indexing by a tensor is tinygrad's one-hot select: the
// index compared with an arange is a mask, and a where over the mask summed
// along the indexed axis picks the element (exact, and differentiable with
// the where's and the sum's rules; autodiff has no rule for a
// data-dependent uop.index).
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include <numeric>

namespace uop {
using namespace mlir;
using namespace detail;

/// i32 indices of `t` (bool or float indices are an error).
static Tensor intIndex(const Tensor &t, const char *what) {
  if (!t.ok())
    return t;
  if (t.dtype() != DType::I32)
    return err(std::string(what) + ": indices must be an i32 tensor, got " + t.str());
  return t;
}

/// sum over the last axis of where(mask, x, 0), keeping x's dtype (bools
/// through i32).
static Tensor selectSum(const Tensor &mask, const Tensor &x, int64_t axis = -1) {
  if (x.dtype() == DType::Bool)
    return mask.where(x.cast(DType::I32), 0).sum(axis).cast(DType::Bool);
  return mask.where(x, 0).sum(axis);
}

//===----------------------------------------------------------------------===//
// Python indexing
//===----------------------------------------------------------------------===//

Tensor Tensor::index(ArrayRef<TensorIndex> indices) const {
  if (!ok())
    return *this;
  int64_t consumed = 0, ellipses = 0;
  for (const TensorIndex &i : indices) {
    if (i.kind == TensorIndex::Kind::Ellipsis)
      ++ellipses;
    else if (i.kind != TensorIndex::Kind::NewAxis)
      ++consumed;
    if (i.kind == TensorIndex::Kind::Tensor)
      if (auto e = firstError({this, &*i.tensor}))
        return *e;
  }
  if (ellipses > 1)
    return err("index: more than one ellipsis");
  if (consumed > ndim())
    return err("index: " + std::to_string(consumed) + " indices for the " +
               std::to_string(ndim()) + " axes of " + shapeStr(shape()));
  Tensor x = *this;
  int64_t d = 0; // the axis of x the next index applies to
  std::vector<std::pair<int64_t, Tensor>> advanced;
  for (const TensorIndex &i : indices) {
    switch (i.kind) {
    case TensorIndex::Kind::Int: {
      int64_t n = x.shape()[d];
      if (i.i < -n || i.i >= n)
        return err("index: index " + std::to_string(i.i) + " is out of range for axis " +
                   std::to_string(d) + " of " + shapeStr(x.shape()));
      x = x.select(d, i.i);
      break;
    }
    case TensorIndex::Kind::Slice:
      x = x.slice(d, i.slice);
      ++d;
      break;
    case TensorIndex::Kind::NewAxis:
      x = x.unsqueeze(d);
      ++d;
      break;
    case TensorIndex::Kind::Ellipsis:
      d += ndim() - consumed;
      break;
    case TensorIndex::Kind::Tensor: {
      Tensor t = intIndex(*i.tensor, "index");
      if (!t.ok())
        return t;
      advanced.push_back({d, t});
      ++d;
      break;
    }
    }
    if (!x.ok())
      return x;
  }
  if (advanced.empty())
    return x;
  // The advanced axes to the end, a mask over them, the sum.
  std::vector<Shape> shapes;
  for (auto &[ax, t] : advanced)
    shapes.push_back(t.shape());
  auto b = broadcastShapes(shapes);
  if (!b)
    return err("index: the index tensors " + llvm::toString(b.takeError()));
  Shape xs = x.shape();
  std::vector<int64_t> rest, adv;
  for (auto &[ax, t] : advanced)
    adv.push_back(ax);
  for (int64_t i = 0; i < x.ndim(); ++i)
    if (!llvm::is_contained(adv, i))
      rest.push_back(i);
  std::vector<int64_t> order = rest;
  order.insert(order.end(), adv.begin(), adv.end());
  Tensor xp = x.permute(order);
  int64_t k = adv.size(), nb = b->size();
  // xp: (R..., n1..nk) -> (R..., 1 x |B|, n1..nk); mask: (B..., n1..nk).
  Shape xps = xp.shape();
  Shape xr(xps.begin(), xps.end() - k);
  Shape xv = xr;
  xv.insert(xv.end(), nb, 1);
  for (int64_t a : adv)
    xv.push_back(xs[a]);
  Tensor mask;
  for (auto [j, at] : llvm::enumerate(advanced)) {
    int64_t n = xs[at.first];
    Tensor idx = at.second.broadcastTo(*b);
    idx = idx.lt(0).where(idx.add(n), idx);
    Shape is = *b;
    is.insert(is.end(), k, 1);
    Shape as(nb + k, 1);
    as[nb + j] = n;
    Tensor m = idx.reshape(is).eq(Tensor::arange(std::max<int64_t>(n, 1), *context())
                                      .slice(0, 0, n)
                                      .reshape(as));
    mask = j == 0 ? m : mask.logicalAnd(m);
  }
  Shape ms(xr.size(), 1);
  Shape mshape = mask.shape();
  ms.insert(ms.end(), mshape.begin(), mshape.end());
  mask = mask.reshape(ms);
  Tensor r = xp.reshape(xv);
  std::vector<int64_t> last;
  for (int64_t j = 0; j < k; ++j)
    last.push_back(-1 - j);
  Tensor src = r.dtype() == DType::Bool ? r.cast(DType::I32) : r;
  Tensor out = mask.where(src, 0).sum(last);
  if (r.dtype() == DType::Bool)
    out = out.cast(DType::Bool);
  // numpy's placement: the broadcast axes where the advanced ones were when
  // they were adjacent, else first; out is (rest..., B...).
  bool adjacent = true;
  for (size_t j = 1; j < adv.size(); ++j)
    adjacent &= adv[j] == adv[j - 1] + 1;
  int64_t nr = rest.size(), pre = 0;
  while (adjacent && pre < nr && rest[pre] < adv[0])
    ++pre;
  std::vector<int64_t> o;
  for (int64_t j = 0; j < pre; ++j)
    o.push_back(j);
  for (int64_t j = 0; j < nb; ++j)
    o.push_back(nr + j);
  for (int64_t j = pre; j < nr; ++j)
    o.push_back(j);
  return out.permute(o);
}

//===----------------------------------------------------------------------===//
// gather, scatter
//===----------------------------------------------------------------------===//

/// index == arange(n) along a new last axis.
static Tensor oneHotLast(const Tensor &index, int64_t n) {
  Tensor ar = Tensor::arange(std::max<int64_t>(n, 1), *index.context()).slice(0, 0, n);
  return index.unsqueeze(-1).eq(ar);
}

Tensor Tensor::gather(int64_t dim, const Tensor &index) const {
  if (auto e = firstError({this, &index}))
    return *e;
  Tensor idx = intIndex(index, "gather");
  if (!idx.ok())
    return idx;
  if (idx.ndim() != ndim())
    return err("gather: the index " + shapeStr(index.shape()) + " must have the rank of " +
               shapeStr(shape()));
  auto a = normAxis0(dim, ndim());
  if (!a)
    return err(axisError("gather", dim, shape()));
  if (ndim() == 0)
    return idx.eq(0).where(*this, zerosLike());
  Shape s = shape(), is = idx.shape();
  std::vector<std::pair<int64_t, int64_t>> bounds;
  for (int64_t d = 0; d < ndim(); ++d) {
    if (d != *a && is[d] > s[d])
      return err("gather: the index " + shapeStr(is) + " is larger than " + shapeStr(s) +
                 " off axis " + std::to_string(dim));
    bounds.push_back({0, d == *a ? s[d] : is[d]});
  }
  if (detail::prod(is) == 0)
    return Tensor::zeros(is, dtype(), *context());
  // x: the index's shape with axis `dim` moved to a new last axis of n.
  Tensor x = shrink(bounds).unsqueeze(-1).transpose(-1, *a);
  return selectSum(oneHotLast(idx, s[*a]), x);
}

/// tinygrad's _pre_scatter: src and the one-hot mask over self's axis
/// `dim`, both (self.shape..., K) with K the index's extent along dim.
static llvm::Expected<std::pair<Tensor, Tensor>>
preScatter(const Tensor &self, int64_t dim, const Tensor &index, const Tensor &src,
           const char *what) {
  if (index.dtype() != DType::I32)
    return llvm::createStringError(std::string(what) + ": indices must be an i32 tensor, got " +
                                   index.str());
  int64_t n = self.ndim();
  if (index.ndim() != n || src.ndim() != n)
    return llvm::createStringError(std::string(what) + ": self " + shapeStr(self.shape()) +
                                   ", index " + shapeStr(index.shape()) + " and src " +
                                   shapeStr(src.shape()) + " must have one rank");
  auto a = normAxis0(dim, n);
  if (!a)
    return llvm::createStringError(axisError(what, dim, self.shape()));
  Shape s = self.shape(), is = index.shape(), ss = src.shape();
  std::vector<std::pair<int64_t, int64_t>> bounds;
  for (int64_t d = 0; d < n; ++d) {
    if ((d != *a && s[d] < is[d]) || ss[d] < is[d])
      return llvm::createStringError(std::string(what) + ": the index " + shapeStr(is) +
                                     " must be no larger than src " + shapeStr(ss) +
                                     " and than self " + shapeStr(s) + " off axis " +
                                     std::to_string(dim));
    bounds.push_back({0, is[d]});
  }
  if (n == 0) // a 0-d scatter: the index must be 0
    return std::make_pair(src.reshape({1}), index.eq(0).reshape({1}));
  Tensor sv = src.cast(self.dtype()).shrink(bounds);
  Shape ex = sv.shape();
  ex.push_back(s[*a]);
  Tensor v = sv.unsqueeze(-1).expand(ex).transpose(-1, *a);
  Tensor m = oneHotLast(index, s[*a]).transpose(-1, *a);
  std::vector<std::pair<int64_t, int64_t>> p;
  for (int64_t d = 0; d < n; ++d)
    p.push_back({0, d == *a ? 0 : s[d] - is[d]});
  p.push_back({0, 0});
  return std::make_pair(v.pad(p), m.pad(p));
}

Tensor Tensor::scatter(int64_t dim, const Tensor &index, const Tensor &src,
                       const std::string &reduce) const {
  if (auto e = firstError({this, &index, &src}))
    return *e;
  if (reduce == "add")
    return scatterReduce(dim, index, src, "sum");
  if (reduce == "multiply")
    return scatterReduce(dim, index, src, "prod");
  if (!reduce.empty())
    return err("scatter: reduce \"" + reduce + "\" is not one of \"add\", \"multiply\"");
  auto pre = preScatter(*this, dim, index, src, "scatter");
  if (!pre)
    return err(llvm::toString(pre.takeError()));
  auto [v, m] = *pre;
  if (ndim() == 0)
    return m.any().where(v.reshape({}), *this);
  // The last write wins: the largest k whose index hits the element.
  int64_t kn = v.shape().back();
  Tensor k = Tensor::arange(std::max<int64_t>(kn, 1), *context()).slice(0, 0, kn);
  Tensor lastK = m.where(k, -1).max(-1, true);
  Tensor pick = m.logicalAnd(k.eq(lastK));
  Tensor written = selectSum(pick, v);
  return m.any(-1).where(written, *this);
}
Tensor Tensor::scatter(int64_t dim, const Tensor &index, Scalar src,
                       const std::string &reduce) const {
  if (auto e = firstError({this, &index}))
    return *e;
  return scatter(dim, index, Tensor::full(index.shape(), src, dtype(), *context()), reduce);
}

Tensor Tensor::scatterReduce(int64_t dim, const Tensor &index, const Tensor &src,
                             const std::string &reduce, bool includeSelf) const {
  if (auto e = firstError({this, &index, &src}))
    return *e;
  if (reduce != "sum" && reduce != "prod" && reduce != "mean" && reduce != "amax" &&
      reduce != "amin")
    return err("scatterReduce: reduce \"" + reduce +
               "\" is not one of \"sum\", \"prod\", \"mean\", \"amax\", \"amin\"");
  auto pre = preScatter(*this, dim, index, src, "scatterReduce");
  if (!pre)
    return err(llvm::toString(pre.takeError()));
  auto [v, m] = *pre;
  Tensor self = ndim() == 0 ? reshape({1}) : *this;
  Tensor hit = m.any(-1);
  auto orSelf = [&](Scalar identity) {
    return includeSelf ? self : hit.where(scalarOf(self, identity, dtype()), self);
  };
  Tensor r;
  if (reduce == "sum") {
    r = m.where(v, 0).sum(-1).cast(dtype()).add(orSelf(0));
  } else if (reduce == "prod") {
    r = m.where(v, 1).prod(-1).cast(dtype()).mul(orSelf(1));
  } else if (reduce == "amax" || reduce == "amin") {
    bool mx = reduce == "amax";
    Scalar id = isFloat(dtype()) ? Scalar(mx ? -INFINITY : INFINITY)
                : dtype() == DType::I32
                    ? Scalar(mx ? std::numeric_limits<int32_t>::min()
                                : std::numeric_limits<int32_t>::max())
                    : Scalar(!mx);
    Tensor red = mx ? m.where(v, id).max(-1) : m.where(v, id).min(-1);
    r = mx ? red.maximum(orSelf(id)) : red.minimum(orSelf(id));
  } else { // mean
    // Where nothing lands (without self), count 1: the where below keeps
    // self there, and 0 / 0 would differentiate to NaN.
    Tensor count = m.where(1, 0).sum(-1).add(includeSelf ? 1 : 0);
    if (!includeSelf)
      count = hit.where(count, 1);
    Tensor total = m.where(v, 0).sum(-1).add(orSelf(0));
    if (isFloat(dtype()))
      r = total.div(count.cast(dtype()));
    else // PyTorch's integer mean floors
      r = total.div(count, "floor").cast(dtype());
    if (!includeSelf)
      r = hit.where(r, self);
  }
  return ndim() == 0 ? r.reshape({}) : r;
}

/// Rows of `cols` (N, C) where the flat bool `m` (N,) holds, as (size, C):
/// row k is the row of the (k+1)-th true (a one-hot select over the running
/// count), `fill` past the count.
static Tensor selectRows(const Tensor &cols, const Tensor &m, int64_t size, Scalar fill) {
  TensorContext &ctx = *cols.context();
  if (size == 0) {
    Shape out = cols.shape();
    out[0] = 0;
    return Tensor::zeros(out, cols.dtype(), ctx);
  }
  Tensor count = m.cast(DType::I32).cumsum(0);                       // (N,)
  Tensor k = Tensor::arange(size, ctx);                              // (size,)
  Tensor hit = m.logicalAnd(count.eq(k.add(1).unsqueeze(-1)));       // (size, N)
  Tensor src = cols.dtype() == DType::Bool ? cols.cast(DType::I32) : cols;
  Tensor picked = hit.unsqueeze(-1).where(src.unsqueeze(0), 0).sum(1); // (size, C)
  if (cols.dtype() == DType::Bool)
    picked = picked.cast(DType::Bool);
  Tensor have = k.lt(m.sum()).unsqueeze(-1);
  return have.where(picked, scalarOf(cols, fill, cols.dtype()));
}

/// The number of true elements of the flat bool `m`, realized.
static llvm::Expected<int64_t> countOf(const Tensor &m) {
  auto n = m.sum().item();
  if (!n)
    return n.takeError();
  return static_cast<int64_t>(*n);
}

Tensor Tensor::maskedSelect(const Tensor &mask, std::optional<int64_t> size,
                            Scalar fillValue) const {
  if (auto e = firstError({this, &mask}))
    return *e;
  if (mask.dtype() != DType::Bool)
    return err("maskedSelect: the mask must be bool, got " + mask.str());
  if (size && *size < 0)
    return err("maskedSelect: negative size " + std::to_string(*size));
  auto shape = broadcastShapes({this->shape(), mask.shape()});
  if (!shape)
    return err("maskedSelect: " + llvm::toString(shape.takeError()));
  Tensor x = broadcastTo(*shape).flatten();
  Tensor m = mask.broadcastTo(*shape).flatten();
  if (!size) { // the result's size is the data's: the mask is realized
    auto n = countOf(m);
    if (!n)
      return err("maskedSelect: " + llvm::toString(n.takeError()));
    size = *n;
  }
  return selectRows(x.unsqueeze(-1), m, *size, fillValue).reshape({*size});
}

Tensor Tensor::nonzero(std::optional<int64_t> size, Scalar fillValue) const {
  if (!ok())
    return *this;
  if (size && *size < 0)
    return err("nonzero: negative size " + std::to_string(*size));
  Tensor m = ne(0).flatten();
  // The coordinates of every element, (N, ndim).
  std::vector<Tensor> coords;
  Shape s = shape();
  for (int64_t d = 0; d < ndim(); ++d) {
    Shape at(ndim(), 1);
    at[d] = s[d];
    coords.push_back(Tensor::arange(s[d], *context()).reshape(at).expand(s).flatten());
  }
  if (!size) {
    auto n = countOf(m);
    if (!n)
      return err("nonzero: " + llvm::toString(n.takeError()));
    size = *n;
  }
  if (coords.empty()) // a 0-d tensor: (n, 0)
    return Tensor::zeros({*size, 0}, DType::I32, *context());
  return selectRows(Tensor::stack(coords, -1), m, *size, fillValue);
}

//===----------------------------------------------------------------------===//
// interpolate
//===----------------------------------------------------------------------===//

Tensor Tensor::interpolate(const Shape &size, const std::string &mode, bool alignCorners) const {
  if (!ok())
    return *this;
  if (size.empty() || static_cast<int64_t>(size.size()) > ndim())
    return err("interpolate: size " + shapeStr(size) + " does not fit " + shapeStr(shape()));
  for (int64_t s : size)
    if (s <= 0)
      return err("interpolate: size " + shapeStr(size) + " must be positive");
  if (mode != "linear" && mode != "nearest" && mode != "nearest-exact")
    return err("interpolate: mode \"" + mode +
               "\" is not one of \"linear\", \"nearest\", \"nearest-exact\"");
  if (alignCorners && mode != "linear")
    return err("interpolate: alignCorners is for the linear mode only");
  Tensor x = isFloat(dtype()) ? *this : toFloat();
  Shape expand = shape();
  int64_t n = ndim();
  for (int64_t i = -1; i >= -static_cast<int64_t>(size.size()); --i) {
    int64_t ax = n + i, out = size[size.size() + i], in = shape()[ax];
    Shape reshape(n, 1);
    reshape[ax] = expand[ax] = out;
    Tensor arr = Tensor::arange(out, *context());
    if (mode == "linear") {
      Tensor num;
      int64_t den;
      if (alignCorners) {
        num = out == 1 ? arr.mul(0) : arr.mul(in - 1);
        den = out == 1 ? 1 : out - 1;
      } else {
        num = arr.mul(2).add(1).mul(in).sub(out);
        den = out * 2;
      }
      num = num.clip(Scalar(0), Scalar((in - 1) * den));
      auto fit = [&](const Tensor &y) { return y.reshape(reshape).expand(expand); };
      Tensor low = fit(num.div(den, "floor")), high = fit(num.add(den - 1).div(den, "floor"));
      Tensor perc = fit(num.mod(den).toFloat().div(static_cast<double>(den)));
      x = x.gather(ax, low).lerp(x.gather(ax, high), perc);
    } else {
      double scale = static_cast<double>(in) / out;
      Tensor a = arr.toFloat();
      Tensor idx = (mode == "nearest-exact" ? a.add(0.5).mul(scale) : a.mul(scale)).cast(DType::I32);
      idx = idx.minimum(in - 1);
      x = x.gather(ax, idx.reshape(reshape).expand(expand));
    }
  }
  return x.cast(isFloat(dtype()) ? dtype() : DType::F32);
}

//===----------------------------------------------------------------------===//
// Triangles and diagonals
//===----------------------------------------------------------------------===//

/// [i, j] = i + diagonal <= j over an r x c grid.
static Tensor upperMask(TensorContext &ctx, int64_t r, int64_t c, int64_t diagonal) {
  Tensor ri = Tensor::arange(std::max<int64_t>(r, 1), ctx).slice(0, 0, r);
  Tensor ci = Tensor::arange(std::max<int64_t>(c, 1), ctx).slice(0, 0, c);
  return ri.unsqueeze(-1).add(diagonal).le(ci);
}

Tensor Tensor::triu(int64_t diagonal) const {
  if (!ok())
    return *this;
  if (ndim() < 2)
    return err("triu: needs at least 2 axes, got " + shapeStr(shape()));
  Shape s = shape();
  Tensor m = upperMask(*context(), s[ndim() - 2], s[ndim() - 1], diagonal);
  return m.where(*this, zerosLike());
}
Tensor Tensor::tril(int64_t diagonal) const {
  if (!ok())
    return *this;
  if (ndim() < 2)
    return err("tril: needs at least 2 axes, got " + shapeStr(shape()));
  Shape s = shape();
  Tensor m = upperMask(*context(), s[ndim() - 2], s[ndim() - 1], diagonal + 1);
  return m.where(zerosLike(), *this);
}

Tensor Tensor::diag() const {
  if (!ok())
    return *this;
  if (ndim() == 2)
    return diagonal();
  if (ndim() != 1)
    return err("diag: needs a 1-D (or 2-D) tensor, got " + shapeStr(shape()));
  int64_t n = shape()[0];
  if (n == 0)
    return Tensor::zeros({0, 0}, dtype(), *context());
  // Each element followed by n zeros, flattened: the diagonal trick.
  return unsqueeze(-1).pad({{0, 0}, {0, n}}).flatten().slice(0, 0, n * n).reshape({n, n});
}

Tensor Tensor::diagonal(int64_t offset, int64_t dim1, int64_t dim2) const {
  if (!ok())
    return *this;
  auto a = normAxis(dim1, ndim()), b = normAxis(dim2, ndim());
  if (!a || !b)
    return err(axisError("diagonal", !a ? dim1 : dim2, shape()));
  if (*a == *b)
    return err("diagonal: dim1 and dim2 are both axis " + std::to_string(*a));
  std::vector<int64_t> order;
  for (int64_t i = 0; i < ndim(); ++i)
    if (i != *a && i != *b)
      order.push_back(i);
  order.push_back(*a);
  order.push_back(*b);
  Tensor x = permute(order);
  Shape s = x.shape();
  int64_t r = s[s.size() - 2], c = s.back();
  Shape lead(s.begin(), s.end() - 2);
  int64_t r0 = offset >= 0 ? 0 : std::min(-offset, r), c0 = offset >= 0 ? std::min(offset, c) : 0;
  int64_t d = std::max<int64_t>(0, std::min(r - r0, c - c0));
  if (d == 0) {
    Shape out = lead;
    out.push_back(0);
    return Tensor::zeros(out, dtype(), *context());
  }
  std::vector<std::pair<int64_t, int64_t>> bounds;
  for (int64_t l : lead)
    bounds.push_back({0, l});
  bounds.push_back({r0, r0 + d});
  bounds.push_back({c0, c0 + d});
  x = x.shrink(bounds); // (..., d, d)
  // Row-major (d, d) padded to (d, d + 1) per row... flattened, the
  // diagonal is every (d + 1)-th element.
  Shape flat = lead;
  flat.push_back(d * d);
  std::vector<std::pair<int64_t, int64_t>> p(lead.size(), {0, 0});
  p.push_back({0, d});
  Shape grid = lead;
  grid.push_back(d);
  grid.push_back(d + 1);
  Tensor y = x.reshape(flat).pad(p).reshape(grid); // (..., d, d + 1)
  std::vector<std::pair<int64_t, int64_t>> first;
  for (int64_t l : lead)
    first.push_back({0, l});
  first.push_back({0, d});
  first.push_back({0, 1});
  Shape out = lead;
  out.push_back(d);
  return y.shrink(first).reshape(out);
}

} // namespace uop
