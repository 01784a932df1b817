//===- Functional.cpp - the seed's functional nn ops -------------*- C++ -*-===//
//
// Compositions of elementwise, movement and reduce ops that the layers of
// NN.cpp use: matmul and linear, conv2d (im2col), maxPool2d, oneHot and the
// cross-entropy loss.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

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
  Tensor out = patches.linear(w.reshape({o, c * kh * kw}).T()).permute({0, 3, 1, 2});
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

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

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

} // namespace uop
