//===- Functional.cpp - the seed's functional nn ops -------------*- C++ -*-===//
//
// Compositions of elementwise, movement and reduce ops that the layers of
// NN.cpp use: matmul and linear, conv2d (im2col), maxPool2d, oneHot and the
// cross-entropy loss.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>

namespace uop {
using namespace mlir;
using namespace detail;

//===----------------------------------------------------------------------===//
// Linear algebra
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
  // f16 operands: each product is made in f32 (exact) and summed in f32,
  // the seed's WMMA contract and what tensor cores compute; the result is
  // f32 (linear and conv2d cast it back to their input's dtype).
  if (x.dtype() == DType::F16 && wt.dtype() == DType::F16) {
    x = x.cast(DType::F32);
    wt = wt.cast(DType::F32);
  }
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

// tinygrad's einsum: the ellipsis spelled out as unused letters, repeated
// letters of one operand as its diagonal, every operand aligned to the
// sorted alphabet and broadcast, multiplied, summed over what the output
// does not name, permuted to the output's order.
Tensor Tensor::einsum(const std::string &formulaArg, ArrayRef<Tensor> operands) {
  std::string formula;
  for (char c : formulaArg)
    if (c != ' ')
      formula += c;
  auto fail = [&](const std::string &why) { return err("einsum \"" + formulaArg + "\": " + why); };
  if (operands.empty())
    return fail("no operands");
  for (const Tensor &t : operands)
    if (auto e = firstError({&operands[0], &t}))
      return *e;
  std::vector<Tensor> xs(operands.begin(), operands.end());
  size_t arrow = formula.find("->");
  std::string lhs = formula.substr(0, arrow);
  std::optional<std::string> rhs;
  if (arrow != std::string::npos)
    rhs = formula.substr(arrow + 2);
  std::vector<std::string> inputs;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    inputs.push_back(lhs.substr(start, comma - start));
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  if (inputs.size() != xs.size())
    return fail(std::to_string(inputs.size()) + " operands in the formula, " +
                std::to_string(xs.size()) + " given");
  // The ellipsis: as many unused letters as the operands need, aligned right.
  std::string unused;
  for (char c = 'A'; c <= 'z'; ++c)
    if (std::isalpha(static_cast<unsigned char>(c)) && formula.find(c) == std::string::npos)
      unused += c;
  size_t ellMax = 0;
  std::vector<size_t> ellN(xs.size(), 0);
  for (size_t i = 0; i < xs.size(); ++i)
    if (inputs[i].find("...") != std::string::npos) {
      int64_t n = xs[i].ndim() - static_cast<int64_t>(inputs[i].size() - 3);
      if (n < 0)
        return fail("operand " + std::to_string(i) + " has too few axes for its subscripts");
      ellN[i] = n;
      ellMax = std::max(ellMax, ellN[i]);
    }
  if (ellMax > unused.size())
    return fail("too many axes for the ellipsis");
  for (size_t i = 0; i < xs.size(); ++i) {
    size_t at = inputs[i].find("...");
    if (at != std::string::npos)
      inputs[i].replace(at, 3, unused.substr(ellMax - ellN[i], ellN[i]));
  }
  std::string ell = unused.substr(0, ellMax);
  std::string all;
  for (const std::string &s : inputs)
    all += s;
  if (!rhs) {
    // Implicit output: the ellipsis, then the letters used once, sorted.
    std::string once;
    for (char c : all)
      if (std::isalpha(static_cast<unsigned char>(c)) && ell.find(c) == std::string::npos &&
          std::count(all.begin(), all.end(), c) == 1)
        once += c;
    std::sort(once.begin(), once.end());
    rhs = ell + once;
  } else if (size_t at = rhs->find("..."); at != std::string::npos) {
    rhs->replace(at, 3, ell);
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    for (char c : inputs[i])
      if (!std::isalpha(static_cast<unsigned char>(c)))
        return fail("subscript '" + std::string(1, c) + "' is not a letter");
    if (static_cast<int64_t>(inputs[i].size()) != xs[i].ndim())
      return fail("operand " + std::to_string(i) + " " + shapeStr(xs[i].shape()) + " has " +
                  std::to_string(xs[i].ndim()) + " axes for subscripts \"" + inputs[i] + "\"");
  }
  // A letter repeated within an operand: its diagonal.
  for (size_t i = 0; i < xs.size(); ++i) {
    std::string &s = inputs[i];
    for (bool again = true; again;) {
      again = false;
      for (size_t j = 0; j < s.size() && !again; ++j) {
        size_t k = s.find(s[j], j + 1);
        if (k == std::string::npos)
          continue;
        if (xs[i].shape()[j] != xs[i].shape()[k])
          return fail("the repeated index '" + std::string(1, s[j]) + "' has sizes " +
                      std::to_string(xs[i].shape()[j]) + " and " +
                      std::to_string(xs[i].shape()[k]));
        xs[i] = xs[i].diagonal(0, j, k);
        char c = s[j];
        s = s.substr(0, j) + s.substr(j + 1, k - j - 1) + s.substr(k + 1) + c;
        again = true;
      }
    }
  }
  std::map<char, int64_t> size;
  for (size_t i = 0; i < xs.size(); ++i)
    for (size_t j = 0; j < inputs[i].size(); ++j) {
      auto [it, inserted] = size.insert({inputs[i][j], xs[i].shape()[j]});
      if (!inserted && it->second != xs[i].shape()[j]) {
        if (it->second == 1)
          it->second = xs[i].shape()[j];
        else if (xs[i].shape()[j] != 1)
          return fail("index '" + std::string(1, inputs[i][j]) + "' has sizes " +
                      std::to_string(it->second) + " and " + std::to_string(xs[i].shape()[j]));
      }
    }
  for (char c : *rhs) {
    if (!size.count(c))
      return fail("the output's index '" + std::string(1, c) + "' is not an input's");
    if (std::count(rhs->begin(), rhs->end(), c) > 1)
      return fail("the output's index '" + std::string(1, c) + "' is repeated");
  }
  std::string alpha;
  for (auto &[c, n] : size)
    alpha += c;
  Shape full;
  for (char c : alpha)
    full.push_back(size[c]);
  Tensor prod;
  for (size_t i = 0; i < xs.size(); ++i) {
    std::string sorted = inputs[i];
    std::sort(sorted.begin(), sorted.end());
    std::vector<int64_t> perm;
    for (char c : sorted)
      perm.push_back(inputs[i].find(c));
    Shape r;
    for (char c : alpha)
      r.push_back(sorted.find(c) != std::string::npos ? xs[i].shape()[inputs[i].find(c)] : 1);
    Tensor x = xs[i].permute(perm).reshape(r).expand(full);
    prod = i == 0 ? x : prod.mul(x);
  }
  std::vector<int64_t> summed;
  for (size_t j = 0; j < alpha.size(); ++j)
    if (rhs->find(alpha[j]) == std::string::npos)
      summed.push_back(j);
  Tensor out = summed.empty() ? prod : prod.sum(summed);
  std::string left;
  for (char c : alpha)
    if (rhs->find(c) != std::string::npos)
      left += c;
  std::vector<int64_t> order;
  for (char c : *rhs)
    order.push_back(left.find(c));
  return out.permute(order);
}

// (An f16 layer accumulates in f32 and gives f16, as PyTorch's.)
Tensor Tensor::linear(const Tensor &w) const {
  Tensor out = matmul(w);
  return out.ok() && dtype() == DType::F16 ? out.cast(DType::F16) : out;
}
Tensor Tensor::linear(const Tensor &w, const Tensor &b) const { return linear(w).add(b); }

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Pooling windows (tinygrad's _pool) and paddings
//===----------------------------------------------------------------------===//

/// ceil(a / b) for b > 0.
static int64_t cdiv(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

/// tinygrad's _pool: the windows of kernel k_ (stride s_, dilation d_) over
/// the trailing axes, as (..., o..., k...), by movement alone: repeat each
/// axis, shrink and reshape so that window offsets and positions become
/// axes.
static Tensor poolWindows(const Tensor &self, const std::vector<int64_t> &k_,
                          const std::vector<int64_t> &s_, const std::vector<int64_t> &d_) {
  Shape sh = self.shape();
  size_t nk = k_.size(), lead = sh.size() - nk;
  std::vector<int64_t> i_(sh.end() - nk, sh.end()), o_, f_;
  for (size_t j = 0; j < nk; ++j) {
    o_.push_back(cdiv(i_[j] - d_[j] * (k_[j] - 1), s_[j]));
    f_.push_back(std::max<int64_t>(1, cdiv(o_.back() * s_[j] - d_[j], i_[j])));
  }
  std::vector<int64_t> reps(lead, 1);
  for (size_t j = 0; j < nk; ++j)
    reps.push_back(cdiv(k_[j] * (i_[j] * f_[j] + d_[j]), i_[j]));
  Tensor x = self.repeat(reps);
  auto shrinkTo = [](const Tensor &t, const Shape &to) {
    std::vector<std::pair<int64_t, int64_t>> b;
    for (int64_t v : to)
      b.push_back({0, v});
    return t.shrink(b);
  };
  Shape lh(sh.begin(), sh.begin() + lead);
  Shape a = lh, b = lh, c = lh, c2 = lh, e = lh, e2 = lh;
  for (size_t j = 0; j < nk; ++j) {
    int64_t w = i_[j] * f_[j] + d_[j];
    a.push_back(k_[j] * w);
    b.push_back(k_[j]), b.push_back(w);
    c.push_back(k_[j]), c.push_back(o_[j] * s_[j]);
    c2.push_back(k_[j]), c2.push_back(o_[j]), c2.push_back(s_[j]);
    e.push_back(k_[j]), e.push_back(o_[j]), e.push_back(1);
    e2.push_back(k_[j]), e2.push_back(o_[j]);
  }
  x = shrinkTo(x, a).reshape(b);
  x = shrinkTo(x, c).reshape(c2);
  x = shrinkTo(x, e).reshape(e2);
  std::vector<int64_t> order;
  for (size_t j = 0; j < lead; ++j)
    order.push_back(j);
  for (size_t j = 0; j < nk; ++j)
    order.push_back(lead + 2 * j + 1);
  for (size_t j = 0; j < nk; ++j)
    order.push_back(lead + 2 * j);
  return x.permute(order);
}

/// tinygrad's resolve_pool_pads + flat_to_grouped: one (before, after) per
/// spatial axis from an int, one int per axis, or PyTorch's flat pairs
/// (last axis first).
static std::optional<std::vector<std::pair<int64_t, int64_t>>> groupedPads(const Ints &padding,
                                                                           size_t nk) {
  std::vector<std::pair<int64_t, int64_t>> g(nk);
  const auto &v = padding.v;
  if (v.size() == 1) {
    for (auto &p : g)
      p = {v[0], v[0]};
  } else if (v.size() == nk) {
    for (size_t j = 0; j < nk; ++j)
      g[j] = {v[j], v[j]};
  } else if (v.size() == 2 * nk) {
    for (size_t j = 0; j < nk; ++j)
      g[nk - 1 - j] = {v[2 * j], v[2 * j + 1]};
  } else {
    return std::nullopt;
  }
  return g;
}

static std::string intsStr(const Ints &i) {
  return i.v.size() == 1 ? std::to_string(i.v[0]) : shapeStr(i.v);
}

/// x padded on its trailing spatial axes (negative amounts remove).
static Tensor padSpatial(const Tensor &x, const std::vector<std::pair<int64_t, int64_t>> &g,
                         Scalar value) {
  std::vector<std::pair<int64_t, int64_t>> p(x.ndim() - g.size(), {0, 0});
  p.insert(p.end(), g.begin(), g.end());
  return x.pad(p, "constant", value);
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

/// The seed's conv2d (im2col from KH*KW shrinks), for the plain case: 2-D,
/// one group, no dilation, one stride, one non-negative padding.
static Tensor seedConv2d(const Tensor &self, const Tensor &w, const std::optional<Tensor> &bias,
                         int64_t padding, int64_t stride) {
  Tensor x = padding ? self.pad({{0, 0}, {0, 0}, {padding, padding}, {padding, padding}}) : self;
  Shape xs = x.shape();
  int64_t n = xs[0], c = xs[1], h = xs[2], wd = xs[3];
  int64_t o = w.shape()[0], kh = w.shape()[2], kw = w.shape()[3];
  int64_t oh = (h - kh) / stride + 1, ow = (wd - kw) / stride + 1;
  std::vector<Tensor> cols = windows2d(x, kh, kw, stride, oh, ow);
  Tensor patches = cols.size() > 1 ? Tensor::stack(cols) : cols[0].unsqueeze(0);
  patches = patches.permute({1, 3, 4, 2, 0}).reshape({n, oh, ow, c * kh * kw});
  Tensor out = patches.linear(w.reshape({o, c * kh * kw}).T()).permute({0, 3, 1, 2});
  if (bias)
    out = out.add(bias->reshape({1, o, 1, 1}));
  return out;
}

/// A convolution over `nk` spatial axes (conv1d, conv2d, conv3d).
static Tensor convNd(const Tensor &self, const Tensor &w, const std::optional<Tensor> &bias,
                     const Ints &padding, const Ints &stride, const Ints &dilation,
                     int64_t groups, size_t nk, const char *name) {
  if (auto e = firstError({&self, &w}))
    return *e;
  if (bias)
    if (auto e = firstError({&self, &*bias}))
      return *e;
  std::string what = std::string(name) + ": input " + shapeStr(self.shape()) + ", weight " +
                     shapeStr(w.shape());
  if (bias)
    what += ", bias " + shapeStr(bias->shape());
  static const char *layouts[] = {"", "(N, C, L) input and a (O, C, K) weight",
                                  "(N, C, H, W) input and a (O, C, KH, KW) weight",
                                  "(N, C, D, H, W) input and a (O, C, KD, KH, KW) weight"};
  if (self.ndim() != static_cast<int64_t>(nk) + 2 || w.ndim() != static_cast<int64_t>(nk) + 2)
    return err(what + ": needs a " + layouts[nk]);
  Shape xs = self.shape(), ws = w.shape();
  if (groups < 1 || ws[0] % groups)
    return err(what + ": groups " + std::to_string(groups) + " must be >= 1 and divide the " +
               std::to_string(ws[0]) + " output channels");
  if (ws[1] * groups != xs[1])
    return err(what + ": the weight's " + std::to_string(ws[1]) + " input channels" +
               (groups > 1 ? " times " + std::to_string(groups) + " groups" : std::string()) +
               " differ from the input's " + std::to_string(xs[1]));
  auto pads = groupedPads(padding, nk);
  auto st = stride.expand(nk), dl = dilation.expand(nk);
  if (!pads || !st || !dl)
    return err(what + ": padding " + intsStr(padding) + ", stride " + intsStr(stride) +
               ", dilation " + intsStr(dilation) + " must be one value or one per spatial axis");
  for (size_t j = 0; j < nk; ++j)
    if ((*st)[j] < 1 || (*dl)[j] < 1)
      return err(what + ": padding " + intsStr(padding) + " and stride " + intsStr(stride) +
                 (dilation.v == std::vector<int64_t>{1} ? "" : ", dilation " + intsStr(dilation)) +
                 " (stride and dilation must be >= 1)");
  if (w.dtype() != self.dtype() || (bias && bias->dtype() != self.dtype()))
    return err(what + ": dtypes differ (" + self.str() + ", " + w.str() +
               (bias ? ", " + bias->str() : std::string()) + ")");
  int64_t cout = ws[0];
  if (bias && bias->shape() != Shape{cout})
    return err(what + ": the bias must be (" + std::to_string(cout) + ",)");
  Shape kernel(ws.begin() + 2, ws.end());
  if (llvm::any_of(kernel, [](int64_t k) { return k < 1; }) || ws[1] < 1)
    return err(what + ": the kernel and its input channels must not be empty");
  for (size_t j = 0; j < nk; ++j) {
    int64_t in = xs[2 + j] + (*pads)[j].first + (*pads)[j].second;
    if ((*dl)[j] * (kernel[j] - 1) + 1 > in || in < 0) {
      std::string k, p;
      for (size_t i = 0; i < nk; ++i) {
        k += (i ? "x" : "") + std::to_string(kernel[i]);
        p += (i ? "x" : "") + std::to_string(xs[2 + i] + (*pads)[i].first + (*pads)[i].second);
      }
      return err(what + ": the " + k + " kernel" +
                 (dilation.v == std::vector<int64_t>{1} ? "" : " (dilated)") +
                 " does not fit the padded " + p + " input");
    }
  }
  bool uniform = padding.v.size() == 1 && stride.v.size() == 1 && padding.v[0] >= 0;
  bool plain = nk == 2 && groups == 1 && *dl == std::vector<int64_t>(nk, 1) &&
               (uniform || (*pads == std::vector<std::pair<int64_t, int64_t>>(
                                          nk, {(*pads)[0].first, (*pads)[0].first}) &&
                            (*pads)[0].first >= 0 && llvm::all_equal(*st)));
  if (plain)
    return seedConv2d(self, w, bias, (*pads)[0].first, (*st)[0]);
  // tinygrad's conv2d: the windows (bs, groups*cin, o..., k...) against the
  // weight (groups, rcout, cin, k...), reduced over (cin, k...).
  int64_t bs = xs[0], cin = ws[1], rcout = cout / groups;
  Tensor x = poolWindows(padSpatial(self, *pads, 0), kernel, *st, *dl);
  Shape xw = x.shape();
  Shape oyx(xw.begin() + 2, xw.begin() + 2 + nk);
  Shape r1{bs, groups, cin, 1}, e1{bs, groups, cin, rcout};
  r1.insert(r1.end(), oyx.begin(), oyx.end());
  e1.insert(e1.end(), oyx.begin(), oyx.end());
  r1.insert(r1.end(), kernel.begin(), kernel.end());
  e1.insert(e1.end(), kernel.begin(), kernel.end());
  std::vector<int64_t> perm{0, 1, 3};
  for (size_t j = 0; j < nk; ++j)
    perm.push_back(4 + j);
  perm.push_back(2);
  for (size_t j = 0; j < nk; ++j)
    perm.push_back(4 + nk + j);
  x = x.reshape(r1).expand(e1).permute(perm); // (bs, groups, rcout, o..., cin, k...)
  Shape wr{1, groups, rcout};
  wr.insert(wr.end(), nk, 1);
  wr.push_back(cin);
  wr.insert(wr.end(), kernel.begin(), kernel.end());
  std::vector<int64_t> red;
  for (size_t j = 0; j < nk + 1; ++j)
    red.push_back(-1 - static_cast<int64_t>(j));
  Shape out{bs, cout};
  out.insert(out.end(), oyx.begin(), oyx.end());
  Tensor r = x.mul(w.reshape(wr)).sum(red).reshape(out);
  if (bias) {
    Shape bshape{1, cout};
    bshape.insert(bshape.end(), nk, 1);
    r = r.add(bias->reshape(bshape));
  }
  return r;
}

Tensor Tensor::conv2d(const Tensor &w, const std::optional<Tensor> &bias, Ints padding,
                      Ints stride, Ints dilation, int64_t groups) const {
  return convNd(*this, w, bias, padding, stride, dilation, groups, 2, "conv2d");
}
Tensor Tensor::conv1d(const Tensor &w, const std::optional<Tensor> &bias, Ints padding,
                      Ints stride, Ints dilation, int64_t groups) const {
  return convNd(*this, w, bias, padding, stride, dilation, groups, 1, "conv1d");
}
Tensor Tensor::conv3d(const Tensor &w, const std::optional<Tensor> &bias, Ints padding,
                      Ints stride, Ints dilation, int64_t groups) const {
  return convNd(*this, w, bias, padding, stride, dilation, groups, 3, "conv3d");
}

/// tinygrad's conv_transpose2d: the input spread by the stride, the weight
/// flipped and its in/out channels swapped per group, and a convolution
/// with padding (k - 1) * d - p (+ the output padding after).
static Tensor convTransposeNd(const Tensor &self, const Tensor &weight,
                              const std::optional<Tensor> &bias, const Ints &padding,
                              const Ints &stride, const Ints &dilation, const Ints &outputPadding,
                              int64_t groups, size_t nk, const char *name) {
  if (auto e = firstError({&self, &weight}))
    return *e;
  std::string what = std::string(name) + ": input " + shapeStr(self.shape()) + ", weight " +
                     shapeStr(weight.shape());
  if (self.ndim() != static_cast<int64_t>(nk) + 2 || weight.ndim() != static_cast<int64_t>(nk) + 2)
    return err(what + ": needs a (N, C, *spatial) input and a (C, O / groups, *kernel) weight with " +
               std::to_string(nk) + " spatial axes");
  Shape ws = weight.shape();
  if (groups < 1 || ws[0] % groups || ws[0] != self.shape()[1])
    return err(what + ": the weight's " + std::to_string(ws[0]) +
               " input channels must be the input's " + std::to_string(self.shape()[1]) +
               " and divide into " + std::to_string(groups) + " groups");
  auto pads = groupedPads(padding, nk);
  auto st = stride.expand(nk), dl = dilation.expand(nk), op = outputPadding.expand(nk);
  if (!pads || !st || !dl || !op)
    return err(what + ": padding, stride, dilation and outputPadding must be one value or one "
                      "per spatial axis");
  for (size_t j = 0; j < nk; ++j)
    if ((*st)[j] < 1 || (*dl)[j] < 1 || (*op)[j] < 0 ||
        ((*op)[j] >= (*st)[j] && (*op)[j] >= (*dl)[j]))
      return err(what + ": stride and dilation must be >= 1, and the output padding below "
                        "the stride or the dilation");
  // w: (groups, C/groups, O/groups, k...) -> (groups, O/groups, C/groups, k...), flipped.
  Shape wu{groups, ws[0] / groups};
  wu.insert(wu.end(), ws.begin() + 1, ws.end());
  Tensor w = weight.reshape(wu).transpose(1, 2);
  for (size_t j = 0; j < nk; ++j)
    w = w.flip(3 + j);
  Shape wf{groups * ws[1], ws[0] / groups};
  wf.insert(wf.end(), ws.begin() + 2, ws.end());
  w = w.reshape(wf);
  Tensor x = self;
  Shape xs = x.shape();
  bool strided = false;
  for (int64_t s : *st)
    strided |= s > 1;
  if (strided) {
    // (k) -> (k, 1) -> pad (k, s) -> (k * s) -> the first k * s - (s - 1).
    Shape r{xs[0], xs[1]};
    std::vector<std::pair<int64_t, int64_t>> p{{0, 0}, {0, 0}};
    Shape merged{xs[0], xs[1]};
    std::vector<std::pair<int64_t, int64_t>> keep{{0, xs[0]}, {0, xs[1]}};
    for (size_t j = 0; j < nk; ++j) {
      int64_t k = xs[2 + j], s = (*st)[j];
      r.push_back(k), r.push_back(1);
      p.push_back({0, 0}), p.push_back({0, s - 1});
      merged.push_back(k * s);
      keep.push_back({0, k * s - (s - 1)});
    }
    x = x.reshape(r).pad(p).reshape(merged).shrink(keep);
  }
  std::vector<int64_t> flat;
  for (size_t j = nk; j-- > 0;) {
    int64_t k = ws[2 + j], d = (*dl)[j];
    flat.push_back((k - 1) * d - (*pads)[j].first);
    flat.push_back((k - 1) * d - (*pads)[j].second + (*op)[j]);
  }
  return convNd(x, w, bias, Ints(flat), 1, *dl, groups, nk, name);
}

Tensor Tensor::convTranspose2d(const Tensor &w, const std::optional<Tensor> &bias, Ints padding,
                               Ints stride, Ints dilation, Ints outputPadding,
                               int64_t groups) const {
  return convTransposeNd(*this, w, bias, padding, stride, dilation, outputPadding, groups, 2,
                         "convTranspose2d");
}
Tensor Tensor::convTranspose1d(const Tensor &w, const std::optional<Tensor> &bias, Ints padding,
                               Ints stride, Ints dilation, Ints outputPadding,
                               int64_t groups) const {
  return convTransposeNd(*this, w, bias, padding, stride, dilation, outputPadding, groups, 1,
                         "convTranspose1d");
}
Tensor Tensor::convTranspose3d(const Tensor &w, const std::optional<Tensor> &bias, Ints padding,
                               Ints stride, Ints dilation, Ints outputPadding,
                               int64_t groups) const {
  return convTransposeNd(*this, w, bias, padding, stride, dilation, outputPadding, groups, 3,
                         "convTranspose3d");
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

namespace {
/// A pooling's arguments, checked, with the spatial paddings.
struct Pool {
  std::vector<int64_t> k, s, d;
  std::vector<std::pair<int64_t, int64_t>> pads;
};
} // namespace

/// Checks kernel, stride, dilation and padding of a pooling of `x` (the
/// kernel's length says how many trailing axes; an int is 2).
static llvm::Expected<Pool> poolArgs(const Tensor &x, const Ints &kernel,
                                     const std::optional<Ints> &stride, const Ints &dilation,
                                     const Ints &padding, bool ceilMode, const char *name) {
  size_t nk = kernel.list ? kernel.v.size() : 2;
  if (nk == 0)
    return llvm::createStringError(std::string(name) + ": an empty kernel");
  Ints st = stride.value_or(kernel);
  std::string what = std::string(name) + ": input " + shapeStr(x.shape()) + ", kernel " +
                     intsStr(kernel) + ", stride " + intsStr(st);
  if (x.ndim() < static_cast<int64_t>(nk) + 1)
    return llvm::createStringError(what + ": needs a " +
                                   (nk == 2 ? std::string("(N, C, H, W)")
                                            : "(N, C, " + std::to_string(nk) + " spatial axes)") +
                                   " input");
  Pool p;
  auto k = kernel.expand(nk), s = st.expand(nk), d = dilation.expand(nk);
  auto g = groupedPads(padding, nk);
  if (!k || !s || !d || !g)
    return llvm::createStringError(what + ": the kernel, stride, dilation and padding must be "
                                          "one value or one per spatial axis");
  p.k = *k, p.s = *s, p.d = *d, p.pads = *g;
  for (size_t j = 0; j < nk; ++j)
    if (p.k[j] < 1 || p.s[j] < 1 || p.d[j] < 1)
      return llvm::createStringError(what + ": the kernel and the stride must be >= 1" +
                                     (p.d[j] < 1 ? std::string(", the dilation >= 1") : ""));
  Shape xs = x.shape();
  for (size_t j = 0; j < nk; ++j) {
    int64_t in = xs[xs.size() - nk + j];
    if (p.pads[j].first < 0 || p.pads[j].second < 0 || 2 * p.pads[j].first > p.k[j] ||
        2 * p.pads[j].second > p.k[j])
      return llvm::createStringError(what + ": padding " + intsStr(padding) +
                                     " must be >= 0 and at most half the kernel");
    if (p.d[j] * (p.k[j] - 1) + 1 > in + p.pads[j].first + p.pads[j].second) {
      std::string hw;
      for (size_t i = 0; i < nk; ++i)
        hw += (i ? "x" : "") + std::to_string(xs[xs.size() - nk + i]);
      return llvm::createStringError(what + ": the kernel does not fit the " + hw + " input");
    }
  }
  if (ceilMode) {
    // tinygrad's _apply_ceil_mode: more padding after, so that the last
    // window may start in the input or the left padding.
    for (size_t j = 0; j < nk; ++j) {
      int64_t i = xs[xs.size() - nk + j], k = p.k[j], s = p.s[j], d = p.d[j];
      auto [pb, pa] = p.pads[j];
      int64_t o = cdiv(i + pb + pa - (d * (k - 1) + 1), s) + 1;
      p.pads[j] = {pb, pa + s * (o - 1) + (d * (k - 1) + 1) - (i + pb + pa) -
                           std::max<int64_t>(s * (o - 1) - (pb + i - 1), 0)};
    }
  }
  return p;
}

/// The pooling axes of a pool over `nk` trailing axes: -nk .. -1.
static std::vector<int64_t> poolAxes(size_t nk) {
  std::vector<int64_t> a;
  for (size_t j = 0; j < nk; ++j)
    a.push_back(-static_cast<int64_t>(nk) + static_cast<int64_t>(j));
  return a;
}

Tensor Tensor::maxPool2d(Ints kernel, std::optional<Ints> stride, Ints dilation, Ints padding,
                         bool ceilMode) const {
  if (!ok())
    return *this;
  auto p = poolArgs(*this, kernel, stride, dilation, padding, ceilMode, "maxPool2d");
  if (!p)
    return err(llvm::toString(p.takeError()));
  size_t nk = p->k.size();
  bool noPad = llvm::all_of(p->pads, [](auto q) { return q.first == 0 && q.second == 0; });
  if (nk == 2 && ndim() == 4 && p->s == p->k && p->d == std::vector<int64_t>{1, 1} && noPad) {
    // The seed's max_pool2d: the rows and columns that fill no window are
    // dropped, (N, C, H/k, k, W/k, k) reduced over the two k axes.
    Shape s = shape();
    int64_t n = s[0], c = s[1], h = s[2], w = s[3], kh = p->k[0], kw = p->k[1];
    Tensor t = shrink({{0, n}, {0, c}, {0, h / kh * kh}, {0, w / kw * kw}});
    return t.reshape({n, c, h / kh, kh, w / kw, kw}).max({3, 5});
  }
  Scalar low = isFloat(dtype()) ? Scalar(-INFINITY)
               : dtype() == DType::I32 ? Scalar(std::numeric_limits<int32_t>::min())
                                       : Scalar(false);
  return poolWindows(padSpatial(*this, p->pads, low), p->k, p->s, p->d).max(poolAxes(nk));
}

Tensor Tensor::avgPool2d(Ints kernel, std::optional<Ints> stride, Ints dilation, Ints padding,
                         bool ceilMode, bool countIncludePad) const {
  if (!ok())
    return *this;
  auto reg = poolArgs(*this, kernel, stride, dilation, padding, false, "avgPool2d");
  if (!reg)
    return err(llvm::toString(reg.takeError()));
  auto p = poolArgs(*this, kernel, stride, dilation, padding, ceilMode, "avgPool2d");
  if (!p)
    return err(llvm::toString(p.takeError()));
  Tensor x = isFloat(dtype()) ? *this : toFloat();
  size_t nk = p->k.size();
  auto pool = [&](const Tensor &t, const std::vector<std::pair<int64_t, int64_t>> &pads) {
    return poolWindows(padSpatial(t, pads, 0), p->k, p->s, p->d);
  };
  std::vector<int64_t> axes = poolAxes(nk);
  if (!countIncludePad)
    return pool(x, p->pads).sum(axes).div(pool(x.onesLike(), p->pads).sum(axes));
  if (!ceilMode)
    return pool(x, p->pads).mean(axes);
  // The regular padding counts; the extra ceil-mode padding does not.
  std::vector<std::pair<int64_t, int64_t>> extra;
  for (size_t j = 0; j < nk; ++j)
    extra.push_back({p->pads[j].first - reg->pads[j].first,
                     p->pads[j].second - reg->pads[j].second});
  Tensor ones = padSpatial(x.onesLike(), reg->pads, 1);
  return pool(x, p->pads).sum(axes).div(pool(ones, extra).sum(axes));
}

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

Tensor Tensor::scaledDotProductAttention(const Tensor &key, const Tensor &value,
                                         const std::optional<Tensor> &attnMask, bool isCausal,
                                         std::optional<double> scale) const {
  if (auto e = firstError({this, &key, &value}))
    return *e;
  if (attnMask)
    if (auto e = firstError({this, &*attnMask}))
      return *e;
  std::string what = "scaledDotProductAttention: query " + shapeStr(shape()) + ", key " +
                     shapeStr(key.shape()) + ", value " + shapeStr(value.shape());
  if (ndim() < 2 || key.ndim() < 2 || value.ndim() < 2)
    return err(what + ": needs (..., L, E) query, (..., S, E) key and (..., S, Ev) value");
  if (shape().back() != key.shape().back() ||
      key.shape()[key.ndim() - 2] != value.shape()[value.ndim() - 2])
    return err(what + ": the embedding sizes or the sequence lengths differ");
  if (isCausal && attnMask)
    return err(what + ": a mask and isCausal together");
  Tensor k = key, v = value;
  // Grouped-query attention: fewer key/value heads (axis -3) repeat.
  if (ndim() >= 3 && key.ndim() >= 3 && shape()[ndim() - 3] != key.shape()[key.ndim() - 3]) {
    int64_t hq = shape()[ndim() - 3], hk = key.shape()[key.ndim() - 3];
    if (hk == 0 || hq % hk || value.shape()[value.ndim() - 3] != hk)
      return err(what + ": the " + std::to_string(hq) + " query heads are not a multiple of the " +
                 std::to_string(hk) + " key/value heads");
    k = k.repeatInterleave(hq / hk, -3);
    v = v.repeatInterleave(hq / hk, -3);
  }
  Tensor q = isFloat(dtype()) ? *this : toFloat();
  double sc = scale.value_or(1.0 / std::sqrt(static_cast<double>(shape().back())));
  Tensor qk = q.matmul(k.transpose(-2, -1)).mul(sc);
  Tensor mask;
  if (isCausal) {
    Shape s = qk.shape();
    mask = Tensor::ones({s[s.size() - 2], s.back()}, DType::Bool, *context()).tril();
  } else if (attnMask) {
    mask = *attnMask;
  }
  if (mask.ok())
    qk = mask.dtype() == DType::Bool ? mask.where(qk, -INFINITY) : qk.add(mask);
  return qk.softmax(-1).matmul(v);
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

Tensor Tensor::oneHot(int64_t n) const {
  if (!ok())
    return *this;
  if (n < 0)
    return err("oneHot: the number of classes must not be negative, got " + std::to_string(n));
  return unsqueeze(-1).eq(Tensor::arange(n, *context())).toFloat();
}

/// tinygrad's _do_reduction.
static Tensor reduced(const Tensor &t, const std::string &reduction, const char *what) {
  if (reduction == "none")
    return t;
  if (reduction == "sum")
    return t.sum();
  if (reduction == "mean")
    return t.mean();
  return err(std::string(what) + ": reduction \"" + reduction +
             "\" is not one of \"mean\", \"sum\", \"none\"");
}

Tensor Tensor::crossEntropy(const Tensor &target, const std::string &reduction,
                            double labelSmoothing) const {
  if (auto e = firstError({this, &target}))
    return *e;
  if (labelSmoothing < 0 || labelSmoothing > 1)
    return err("crossEntropy: labelSmoothing " + std::to_string(labelSmoothing) +
               " is not in [0, 1]");
  if (ndim() == 0)
    return err("crossEntropy: needs logits with a class axis, got " + str());
  // The seed's: (B, C) logits, (B,) i32 labels, the mean.
  if (ndim() == 2 && target.ndim() == 1 && target.dtype() == DType::I32 &&
      target.shape()[0] == shape()[0] && reduction == "mean" && labelSmoothing == 0)
    return logSoftmax(-1).mul(target.oneHot(shape().back())).sum(-1).mean().neg();
  int64_t cd = ndim() == 1 ? 0 : 1, nc = shape()[cd];
  Tensor y;
  if (target.shape() == shape() && isFloat(target.dtype())) {
    y = target;
  } else {
    Shape want = shape();
    want.erase(want.begin() + cd);
    if (target.shape() != want || target.dtype() != DType::I32)
      return err("crossEntropy: the target must be i32 class indices of shape " + shapeStr(want) +
                 " or probabilities of shape " + shapeStr(shape()) + ", got " + target.str());
    Shape as(ndim(), 1);
    as[cd] = nc;
    y = target.unsqueeze(cd).eq(Tensor::arange(nc, *context()).reshape(as)).toFloat();
  }
  Tensor logits = isFloat(dtype()) ? *this : toFloat();
  if (labelSmoothing != 0)
    y = y.mul(1 - labelSmoothing).add(labelSmoothing / static_cast<double>(nc));
  return reduced(logits.logSoftmax(cd).mul(y).sum(cd).neg(), reduction, "crossEntropy");
}

Tensor Tensor::nllLoss(const Tensor &target, const std::optional<Tensor> &weight,
                       std::optional<int64_t> ignoreIndex, const std::string &reduction) const {
  if (auto e = firstError({this, &target}))
    return *e;
  if (weight)
    if (auto e = firstError({this, &*weight}))
      return *e;
  if (ndim() < 1 || target.dtype() != DType::I32)
    return err("nllLoss: needs (N, C, ...) log-probabilities and i32 targets, got " + str() +
               " and " + target.str());
  Tensor x = ndim() == 1 ? unsqueeze(0) : *this;
  Tensor t = ndim() == 1 ? target.reshape({1}) : target;
  Shape want = x.shape();
  want.erase(want.begin() + 1);
  if (t.shape() != want)
    return err("nllLoss: the target must have shape " + shapeStr(want) + ", got " + target.str());
  Tensor w = weight ? weight->gather(0, t.flatten()).reshape(t.shape()) : t.onesLike(DType::F32);
  if (weight && weight->shape() != Shape{x.shape()[1]})
    return err("nllLoss: the weight must have shape (" + std::to_string(x.shape()[1]) +
               ",), got " + weight->str());
  if (ignoreIndex)
    w = w.mul(t.ne(*ignoreIndex));
  Tensor nll = x.gather(1, t.unsqueeze(1)).squeeze(1).neg().mul(w);
  if (reduction == "mean")
    return nll.sum().div(w.sum());
  Tensor r = reduced(nll, reduction, "nllLoss");
  return ndim() == 1 && reduction == "none" ? r.reshape({}) : r;
}

Tensor Tensor::binaryCrossEntropy(const Tensor &target, const std::string &reduction) const {
  if (auto e = firstError({this, &target}))
    return *e;
  // PyTorch clamps the logs at -100 (0 * log 0 is then 0).
  Tensor p = isFloat(dtype()) ? *this : toFloat();
  Tensor y = target.cast(p.dtype());
  Tensor l = y.mul(p.log().maximum(-100)).add(y.rsub(1).mul(p.rsub(1).log().maximum(-100)));
  return reduced(l.neg(), reduction, "binaryCrossEntropy");
}

Tensor Tensor::binaryCrossEntropyWithLogits(const Tensor &target, const std::string &reduction,
                                            const std::optional<Tensor> &posWeight) const {
  if (auto e = firstError({this, &target}))
    return *e;
  Tensor x = isFloat(dtype()) ? *this : toFloat();
  Tensor y = target.cast(x.dtype());
  Tensor pos = y.mul(x.logsigmoid());
  if (posWeight)
    pos = pos.mul(*posWeight);
  Tensor l = pos.add(y.rsub(1).mul(x.neg().logsigmoid()));
  return reduced(l.neg(), reduction, "binaryCrossEntropyWithLogits");
}

Tensor Tensor::sparseCategoricalCrossEntropy(const Tensor &target, int64_t ignoreIndex,
                                             double labelSmoothing,
                                             const std::string &reduction) const {
  if (auto e = firstError({this, &target}))
    return *e;
  Shape lead = shape();
  if (!lead.empty())
    lead.pop_back();
  if (ndim() < 1 || target.dtype() != DType::I32 || target.shape() != lead)
    return err("sparseCategoricalCrossEntropy: needs (..., C) logits and (...) i32 targets, got " +
               str() + " and " + target.str());
  Tensor logp = logSoftmax(-1);
  Tensor mask = ignoreIndex != -1 ? target.ne(ignoreIndex) : target.onesLike(DType::Bool);
  Tensor y = target.oneHot(shape().back()).mul(mask.unsqueeze(-1));
  Tensor smoothing = logp.mean(-1).mul(mask).mul(labelSmoothing);
  Tensor unreduced = logp.mul(y).sum(-1).mul(1 - labelSmoothing).add(smoothing);
  if (reduction == "mean")
    return unreduced.sum().neg().div(mask.sum());
  return reduced(unreduced.neg(), reduction, "sparseCategoricalCrossEntropy");
}

Tensor Tensor::layernorm(const std::vector<int64_t> &axes, double eps) const {
  Tensor y = sub(mean(axes, true));
  return y.mul(y.mul(y).mean(axes, true).add(eps).rsqrt());
}

} // namespace uop
