//===- NNOpsTest.cpp - the functional nn family ------------------*- C++ -*-===//
//
// Convolutions (1-D, 2-D, 3-D; groups, dilation, per-axis stride and
// padding, negative and asymmetric padding), transposed convolutions,
// max and average pooling (padding, dilation, ceil mode, count_include_pad),
// scaled dot-product attention (bool and float masks, causal, grouped
// heads) and the losses (binary cross entropy of probabilities and of
// logits, nll, cross entropy with reductions, label smoothing and
// probability targets, tinygrad's sparse categorical cross entropy),
// against direct numpy implementations of PyTorch's definitions in float64,
// values and finite-difference gradients.
//
//===----------------------------------------------------------------------===//

#include "OpsTestUtil.h"

#include "gtest/gtest.h"

using namespace uop;
using test::OpCase;

namespace {

class NNOpsTest : public test::OpsTest {};

const char *kNNRefs = R"py(
import itertools
def tup(v, n): return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n
def pad_axes(x, pads, value=0.0):
    # pads: one (before, after) per trailing axis, negative crops
    lead = x.ndim - len(pads)
    sl = [slice(None)] * lead + [slice(max(-b, 0), x.shape[lead + i] - max(-a, 0)) for i, (b, a) in enumerate(pads)]
    x = x[tuple(sl)]
    return np.pad(x, [(0, 0)] * lead + [(max(b, 0), max(a, 0)) for b, a in pads], constant_values=value)
def conv(x, w, b=None, stride=1, pads=None, dil=1, groups=1):
    nd = x.ndim - 2; st, dl = tup(stride, nd), tup(dil, nd)
    if pads is not None: x = pad_axes(x, pads)
    N, C = x.shape[:2]; O = w.shape[0]; K = w.shape[2:]
    o = [(x.shape[2 + i] - dl[i] * (K[i] - 1) - 1) // st[i] + 1 for i in range(nd)]
    out = np.zeros((N, O) + tuple(o)); cg, og = C // groups, O // groups
    for g in range(groups):
        for ks in itertools.product(*[range(k) for k in K]):
            sl = tuple(slice(ks[i] * dl[i], ks[i] * dl[i] + st[i] * (o[i] - 1) + 1, st[i]) for i in range(nd))
            xs = x[(slice(None), slice(g * cg, (g + 1) * cg)) + sl]
            ww = w[(slice(g * og, (g + 1) * og), slice(None)) + ks]
            out[:, g * og:(g + 1) * og] += np.einsum('nc...,oc->no...', xs, ww)
    if b is not None: out += b.reshape((1, -1) + (1,) * nd)
    return out
def conv_t(x, w, b=None, stride=1, pad=0, dil=1, out_pad=0, groups=1):
    nd = x.ndim - 2; st, dl, p, op = tup(stride, nd), tup(dil, nd), tup(pad, nd), tup(out_pad, nd)
    N, C = x.shape[:2]; K = w.shape[2:]; og = w.shape[1]; cg = C // groups
    full = [(x.shape[2 + i] - 1) * st[i] + dl[i] * (K[i] - 1) + 1 + op[i] for i in range(nd)]
    out = np.zeros((N, og * groups) + tuple(full))
    for g in range(groups):
        for idx in itertools.product(*[range(s) for s in x.shape[2:]]):
            for ks in itertools.product(*[range(k) for k in K]):
                pos = tuple(idx[i] * st[i] + ks[i] * dl[i] for i in range(nd))
                xv = x[(slice(None), slice(g * cg, (g + 1) * cg)) + idx]  # (N, cg)
                wv = w[(slice(g * cg, (g + 1) * cg), slice(None)) + ks]   # (cg, og)
                out[(slice(None), slice(g * og, (g + 1) * og)) + pos] += xv @ wv
    sl = tuple(slice(p[i], full[i] - p[i] + 0) for i in range(nd))
    out = out[(slice(None), slice(None)) + tuple(slice(p[i], full[i] - p[i]) for i in range(nd))]
    if b is not None: out += b.reshape((1, -1) + (1,) * nd)
    return out
def pool_out(i, k, s, p, d, ceil):
    num = i + 2 * p - d * (k - 1) - 1
    o = (-(-num // s) if ceil else num // s) + 1
    if ceil and (o - 1) * s >= i + p: o -= 1
    return o
def max_pool(x, k, s=None, p=0, d=1, ceil=False):
    nd = len(k); s = tup(s if s is not None else k, nd); p, d = tup(p, nd), tup(d, nd)
    o = [pool_out(x.shape[-nd + i], k[i], s[i], p[i], d[i], ceil) for i in range(nd)]
    need = [max((o[i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 - x.shape[-nd + i] - p[i], 0) for i in range(nd)]
    xp = pad_axes(x, [(p[i], need[i]) for i in range(nd)], -np.inf)
    out = np.full(x.shape[:-nd] + tuple(o), -np.inf)
    for ks in itertools.product(*[range(kk) for kk in k]):
        sl = tuple(slice(ks[i] * d[i], ks[i] * d[i] + s[i] * (o[i] - 1) + 1, s[i]) for i in range(nd))
        out = np.maximum(out, xp[(Ellipsis,) + sl])
    return out
def avg_pool(x, k, s=None, p=0, ceil=False, include_pad=True):
    nd = len(k); s = tup(s if s is not None else k, nd); p = tup(p, nd)
    o = [pool_out(x.shape[-nd + i], k[i], s[i], p[i], 1, ceil) for i in range(nd)]
    out = np.zeros(x.shape[:-nd] + tuple(o))
    for pos in itertools.product(*[range(oo) for oo in o]):
        lo = [pos[i] * s[i] - p[i] for i in range(nd)]
        hi = [min(lo[i] + k[i], x.shape[-nd + i] + p[i]) for i in range(nd)]
        count = np.prod([hi[i] - lo[i] for i in range(nd)])
        lo2 = [max(v, 0) for v in lo]; hi2 = [min(hi[i], x.shape[-nd + i]) for i in range(nd)]
        win = x[(Ellipsis,) + tuple(slice(lo2[i], hi2[i]) for i in range(nd))]
        if not include_pad: count = np.prod([hi2[i] - lo2[i] for i in range(nd)])
        out[(Ellipsis,) + pos] = win.sum(tuple(range(-nd, 0))) / count
    return out
def softmax(x, axis=-1): e = np.exp(x - x.max(axis, keepdims=True)); return e / e.sum(axis, keepdims=True)
def log_softmax(x, axis): m = x - x.max(axis, keepdims=True); return m - np.log(np.exp(m).sum(axis, keepdims=True))
def sdpa(q, k, v, mask=None, causal=False):
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if causal: mask = np.tril(np.ones(s.shape[-2:], bool))
    if mask is not None: s = np.where(mask, s, -np.inf) if mask.dtype == bool else s + mask
    return softmax(s) @ v
def red(l, r): return l.mean() if r == 'mean' else l.sum() if r == 'sum' else l
def bce(p, y, r='mean'): return red(-(y * np.maximum(np.log(p), -100) + (1 - y) * np.maximum(np.log(1 - p), -100)), r)
def logsig(x): return -np.logaddexp(0, -x)
def bce_logits(x, y, r='mean', pw=None): return red(-((1 if pw is None else pw) * y * logsig(x) + (1 - y) * logsig(-x)), r)
def ce_idx(x, t, r='mean', ls=0.0, axis=1):
    lp = log_softmax(x, axis); c = x.shape[axis]
    oh = np.moveaxis(np.eye(c)[t], -1, axis)
    y = (1 - ls) * oh + ls / c
    return red(-(lp * y).sum(axis), r)
def ce_prob(x, y, r='mean', ls=0.0):
    c = x.shape[1]; y = (1 - ls) * y + ls / c
    return red(-(log_softmax(x, 1) * y).sum(1), r)
def nll(x, t, w=None, ignore=None, r='mean'):
    picked = np.take_along_axis(x, np.expand_dims(t, 1).clip(0, x.shape[1] - 1), 1).squeeze(1)
    ww = np.ones(t.shape) if w is None else w[t.clip(0, x.shape[1] - 1)]
    if ignore is not None: ww = ww * (t != ignore)
    l = -picked * ww
    return l.sum() / ww.sum() if r == 'mean' else red(l, r)
T = np.array([1, 0, 3, 2, 3])
T2 = np.array([[1, 0], [3, 2], [0, 0]])
REF['conv1d'] = lambda x, w: conv(x, w)
REF['conv1d_stride_pad'] = lambda x, w, b: conv(x, w, b, stride=2, pads=[(1, 2)])
REF['conv2d'] = lambda x, w, b: conv(x, w, b)
REF['conv2d_padded'] = lambda x, w: conv(x, w, pads=[(1, 1), (1, 1)])
REF['conv2d_stride'] = lambda x, w: conv(x, w, stride=2, pads=[(1, 1), (1, 1)])
REF['conv2d_axis_stride_pad'] = lambda x, w: conv(x, w, stride=(1, 2), pads=[(2, 2), (0, 0)])
REF['conv2d_asym_pad'] = lambda x, w: conv(x, w, pads=[(1, 0), (2, 1)])
REF['conv2d_neg_pad'] = lambda x, w: conv(x, w, pads=[(0, 0), (-1, -1)])
REF['conv2d_dilated'] = lambda x, w: conv(x, w, dil=2, pads=[(1, 1), (1, 1)])
REF['conv2d_grouped'] = lambda x, w, b: conv(x, w, b, groups=2)
REF['conv2d_depthwise'] = lambda x, w: conv(x, w, groups=4, pads=[(1, 1), (1, 1)])
REF['conv3d'] = lambda x, w: conv(x, w, pads=[(1, 1)] * 3)
REF['conv_transpose2d'] = lambda x, w: conv_t(x, w)
REF['conv_transpose2d_bias'] = lambda x, w, b: conv_t(x, w, b, pad=1)
REF['conv_transpose2d_stride'] = lambda x, w: conv_t(x, w, stride=2, pad=1, out_pad=1)
REF['conv_transpose2d_dilated'] = lambda x, w: conv_t(x, w, dil=2)
REF['conv_transpose2d_grouped'] = lambda x, w: conv_t(x, w, groups=2)
REF['conv_transpose1d'] = lambda x, w: conv_t(x, w, stride=3)
REF['max_pool2d'] = lambda x: max_pool(x, (2, 2))
REF['max_pool2d_stride1'] = lambda x: max_pool(x, (3, 3), 1)
REF['max_pool2d_padding'] = lambda x: max_pool(x, (3, 3), 2, 1)
REF['max_pool2d_dilation'] = lambda x: max_pool(x, (2, 3), 1, 0, 2)
REF['max_pool2d_ceil'] = lambda x: max_pool(x, (3, 3), 2, 0, 1, True)
REF['max_pool2d_ceil_pad'] = lambda x: max_pool(x, (3, 2), 2, 1, 1, True)
REF['max_pool1d_like'] = lambda x: max_pool(x, (3,), 2)
REF['avg_pool2d'] = lambda x: avg_pool(x, (2, 2))
REF['avg_pool2d_padding'] = lambda x: avg_pool(x, (3, 3), 2, 1)
REF['avg_pool2d_no_pad_count'] = lambda x: avg_pool(x, (3, 3), 2, 1, include_pad=False)
REF['avg_pool2d_ceil'] = lambda x: avg_pool(x, (3, 3), 2, 0, True)
REF['avg_pool2d_ceil_pad'] = lambda x: avg_pool(x, (3, 3), 2, 1, True)
REF['avg_pool2d_ceil_no_pad_count'] = lambda x: avg_pool(x, (3, 3), 2, 1, True, False)
REF['avg_pool3d'] = lambda x: avg_pool(x, (2, 2, 2))
REF['sdpa'] = lambda q, k, v: sdpa(q, k, v)
REF['sdpa_causal'] = lambda q, k, v: sdpa(q, k, v, causal=True)
MB = np.tril(np.ones((4, 6), bool), 2)
REF['sdpa_bool_mask'] = lambda q, k, v: sdpa(q, k, v, MB)
REF['sdpa_float_mask'] = lambda q, k, v, m: sdpa(q, k, v, m)
REF['sdpa_gqa'] = lambda q, k, v: sdpa(q, np.repeat(k, 2, 1), np.repeat(v, 2, 1))
REF['bce'] = lambda p, y: bce(p, y)
REF['bce_sum'] = lambda p, y: bce(p, y, 'sum')
REF['bce_none'] = lambda p, y: bce(p, y, 'none')
REF['bce_logits'] = lambda x, y: bce_logits(x, y)
REF['bce_logits_pos_weight'] = lambda x, y, w: bce_logits(x, y, 'none', w)
REF['ce_indices'] = lambda x: ce_idx(x, T)
REF['ce_indices_sum'] = lambda x: ce_idx(x, T, 'sum')
REF['ce_indices_none'] = lambda x: ce_idx(x, T, 'none')
REF['ce_smoothing'] = lambda x: ce_idx(x, T, 'mean', 0.3)
REF['ce_probs'] = lambda x, y: ce_prob(x, y / y.sum(1, keepdims=True))
REF['ce_probs_smoothing'] = lambda x, y: ce_prob(x, y / y.sum(1, keepdims=True), 'sum', 0.1)
REF['ce_3d'] = lambda x: ce_idx(x, T2, 'mean', 0.0)
REF['ce_1d'] = lambda x: ce_idx(x, np.array(2), 'mean', 0.0, 0)
REF['nll'] = lambda x: nll(x, T)
REF['nll_weight'] = lambda x, w: nll(x, T, w)
REF['nll_ignore'] = lambda x: nll(x, T, None, 3)
REF['nll_sum'] = lambda x: nll(x, T, None, None, 'sum')
REF['nll_3d_none'] = lambda x: nll(x, T2, None, None, 'none')
REF['sparse_ce'] = lambda x: ce_idx(x, T, 'mean', 0.0, -1)
REF['sparse_ce_smooth'] = lambda x: ce_idx(x, T, 'sum', 0.2, -1)
REF['einsum_mm'] = lambda a, b: np.einsum('ij,jk->ik', a, b)
REF['einsum_batch'] = lambda a, b: np.einsum('bij,bjk->bik', a, b)
REF['einsum_trace'] = lambda a: np.einsum('ii', a)
REF['einsum_diag'] = lambda a: np.einsum('ii->i', a)
REF['einsum_outer'] = lambda a, b: np.einsum('i,j->ij', a, b)
REF['einsum_ellipsis'] = lambda a, b: np.einsum('...ij,...jk', a, b)
REF['einsum_implicit'] = lambda a, b, c: np.einsum('ij,jk,kl', a, b, c)
REF['einsum_sum'] = lambda a: np.einsum('ijk->j', a)
REF['layernorm'] = lambda x: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)
)py";

TEST_F(NNOpsTest, ConvolutionsAndPooling) {
  using V = std::vector<Tensor>;
  auto c = [](const char *name, std::vector<Shape> shapes, std::function<Tensor(const V &)> f) {
    return OpCase(name, std::move(shapes), std::move(f));
  };
  std::vector<OpCase> cases = {
      c("conv1d", {{2, 3, 9}, {4, 3, 3}}, [](const V &x) { return x[0].conv1d(x[1]); }),
      c("conv1d_stride_pad", {{2, 3, 9}, {4, 3, 3}, {4}},
        [](const V &x) { return x[0].conv1d(x[1], x[2], {1, 2}, 2); }),
      c("conv2d", {{2, 3, 6, 7}, {4, 3, 3, 2}, {4}},
        [](const V &x) { return x[0].conv2d(x[1], x[2]); }),
      c("conv2d_padded", {{2, 3, 5, 5}, {4, 3, 3, 3}},
        [](const V &x) { return x[0].conv2d(x[1], std::nullopt, 1); }),
      c("conv2d_stride", {{2, 3, 7, 6}, {4, 3, 3, 3}},
        [](const V &x) { return x[0].conv2d(x[1], std::nullopt, 1, 2); }),
      c("conv2d_axis_stride_pad", {{1, 2, 5, 7}, {3, 2, 3, 3}},
        [](const V &x) { return x[0].conv2d(x[1], std::nullopt, {2, 0}, {1, 2}); }),
      c("conv2d_asym_pad", {{1, 2, 5, 6}, {3, 2, 3, 3}},
        [](const V &x) { return x[0].conv2d(x[1], std::nullopt, {2, 1, 1, 0}); }),
      c("conv2d_neg_pad", {{1, 2, 7, 6}, {3, 2, 3, 3}},
        [](const V &x) { return x[0].conv2d(x[1], std::nullopt, {0, -1}); }),
      c("conv2d_dilated", {{1, 2, 7, 7}, {3, 2, 3, 3}},
        [](const V &x) { return x[0].conv2d(x[1], std::nullopt, 1, 1, 2); }),
      c("conv2d_grouped", {{2, 4, 5, 5}, {6, 2, 3, 3}, {6}},
        [](const V &x) { return x[0].conv2d(x[1], x[2], 0, 1, 1, 2); }),
      c("conv2d_depthwise", {{1, 4, 5, 5}, {4, 1, 3, 3}},
        [](const V &x) { return x[0].conv2d(x[1], std::nullopt, 1, 1, 1, 4); }),
      c("conv3d", {{1, 2, 4, 4, 4}, {2, 2, 3, 3, 3}},
        [](const V &x) { return x[0].conv3d(x[1], std::nullopt, 1); }),
      c("conv_transpose2d", {{2, 3, 4, 4}, {3, 2, 3, 3}},
        [](const V &x) { return x[0].convTranspose2d(x[1]); }),
      c("conv_transpose2d_bias", {{1, 3, 4, 4}, {3, 2, 3, 3}, {2}},
        [](const V &x) { return x[0].convTranspose2d(x[1], x[2], 1); }),
      c("conv_transpose2d_stride", {{1, 2, 3, 4}, {2, 3, 3, 3}},
        [](const V &x) { return x[0].convTranspose2d(x[1], std::nullopt, 1, 2, 1, 1); }),
      c("conv_transpose2d_dilated", {{1, 2, 3, 3}, {2, 2, 2, 3}},
        [](const V &x) { return x[0].convTranspose2d(x[1], std::nullopt, 0, 1, 2); }),
      c("conv_transpose2d_grouped", {{1, 4, 3, 3}, {4, 3, 2, 2}},
        [](const V &x) { return x[0].convTranspose2d(x[1], std::nullopt, 0, 1, 1, 0, 2); }),
      c("conv_transpose1d", {{2, 2, 4}, {2, 3, 3}},
        [](const V &x) { return x[0].convTranspose1d(x[1], std::nullopt, 0, 3); }),
      c("max_pool2d", {{2, 3, 6, 7}}, [](const V &x) { return x[0].maxPool2d(); }),
      c("max_pool2d_stride1", {{1, 2, 5, 6}}, [](const V &x) { return x[0].maxPool2d(3, 1); }),
      c("max_pool2d_padding", {{1, 2, 7, 6}},
        [](const V &x) { return x[0].maxPool2d(3, 2, 1, 1); }),
      c("max_pool2d_dilation", {{1, 2, 7, 8}},
        [](const V &x) { return x[0].maxPool2d({2, 3}, 1, 2); }),
      c("max_pool2d_ceil", {{1, 2, 8, 7}},
        [](const V &x) { return x[0].maxPool2d(3, 2, 1, 0, true); }),
      c("max_pool2d_ceil_pad", {{1, 1, 6, 5}},
        [](const V &x) { return x[0].maxPool2d({3, 2}, 2, 1, 1, true); }),
      c("max_pool1d_like", {{2, 3, 9}}, [](const V &x) { return x[0].maxPool2d({3}, 2); }),
      c("avg_pool2d", {{2, 3, 6, 7}}, [](const V &x) { return x[0].avgPool2d(); }),
      c("avg_pool2d_padding", {{1, 2, 7, 6}},
        [](const V &x) { return x[0].avgPool2d(3, 2, 1, 1); }),
      c("avg_pool2d_no_pad_count", {{1, 2, 7, 6}},
        [](const V &x) { return x[0].avgPool2d(3, 2, 1, 1, false, false); }),
      c("avg_pool2d_ceil", {{1, 2, 8, 7}},
        [](const V &x) { return x[0].avgPool2d(3, 2, 1, 0, true); }),
      c("avg_pool2d_ceil_pad", {{1, 2, 8, 7}},
        [](const V &x) { return x[0].avgPool2d(3, 2, 1, 1, true); }),
      c("avg_pool2d_ceil_no_pad_count", {{1, 2, 8, 7}},
        [](const V &x) { return x[0].avgPool2d(3, 2, 1, 1, true, false); }),
      c("avg_pool3d", {{1, 2, 4, 4, 6}}, [](const V &x) { return x[0].avgPool2d({2, 2, 2}); }),
  };
  check(cases, kNNRefs);
}

TEST_F(NNOpsTest, AttentionAndLosses) {
  using V = std::vector<Tensor>;
  auto c = [](const char *name, std::vector<Shape> shapes, std::function<Tensor(const V &)> f) {
    return OpCase(name, std::move(shapes), std::move(f));
  };
  Tensor t = Tensor::fromInts({1, 0, 3, 2, 3}, {5}, ctx);
  Tensor t2 = Tensor::fromInts({1, 0, 3, 2, 0, 0}, {3, 2}, ctx);
  Tensor mb = Tensor::ones({4, 6}, DType::Bool, ctx).tril(2);
  Shape q{2, 2, 4, 8}, kv{2, 2, 6, 8};
  std::vector<OpCase> cases = {
      c("sdpa", {q, kv, kv},
        [](const V &x) { return x[0].scaledDotProductAttention(x[1], x[2]); }),
      c("sdpa_causal", {q, q, q},
        [](const V &x) { return x[0].scaledDotProductAttention(x[1], x[2], std::nullopt, true); }),
      c("sdpa_bool_mask", {q, kv, kv},
        [mb](const V &x) { return x[0].scaledDotProductAttention(x[1], x[2], mb); }),
      c("sdpa_float_mask", {q, kv, kv, {4, 6}},
        [](const V &x) { return x[0].scaledDotProductAttention(x[1], x[2], x[3]); }),
      c("sdpa_gqa", {{2, 4, 4, 8}, {2, 2, 6, 8}, {2, 2, 6, 8}},
        [](const V &x) { return x[0].scaledDotProductAttention(x[1], x[2]); }),
      c("bce", {{3, 5}, {3, 5}},
        [](const V &x) { return x[0].binaryCrossEntropy(x[1]); })
          .range(0.05, 0.95),
      c("bce_sum", {{3, 5}, {3, 5}},
        [](const V &x) { return x[0].binaryCrossEntropy(x[1], "sum"); })
          .range(0.05, 0.95),
      c("bce_none", {{3, 5}, {3, 5}},
        [](const V &x) { return x[0].binaryCrossEntropy(x[1], "none"); })
          .range(0.05, 0.95),
      c("bce_logits", {{3, 5}, {3, 5}},
        [](const V &x) { return x[0].binaryCrossEntropyWithLogits(x[1]); }),
      c("bce_logits_pos_weight", {{3, 5}, {3, 5}, {5}},
        [](const V &x) { return x[0].binaryCrossEntropyWithLogits(x[1], "none", x[2]); }),
      c("ce_indices", {{5, 4}}, [t](const V &x) { return x[0].crossEntropy(t); }),
      c("ce_indices_sum", {{5, 4}}, [t](const V &x) { return x[0].crossEntropy(t, "sum"); }),
      c("ce_indices_none", {{5, 4}}, [t](const V &x) { return x[0].crossEntropy(t, "none"); }),
      c("ce_smoothing", {{5, 4}},
        [t](const V &x) { return x[0].crossEntropy(t, "mean", 0.3); }),
      c("ce_probs", {{5, 4}, {5, 4}},
        [](const V &x) { return x[0].crossEntropy(x[1].div(x[1].sum(1, true))); })
          .range(0.1, 1),
      c("ce_probs_smoothing", {{5, 4}, {5, 4}},
        [](const V &x) { return x[0].crossEntropy(x[1].div(x[1].sum(1, true)), "sum", 0.1); })
          .range(0.1, 1),
      c("ce_3d", {{3, 4, 2}}, [t2](const V &x) { return x[0].crossEntropy(t2); }),
      c("ce_1d", {{4}},
        [this](const V &x) { return x[0].crossEntropy(Tensor::full({}, 2, DType::I32, ctx)); }),
      c("nll", {{5, 4}}, [t](const V &x) { return x[0].nllLoss(t); }),
      c("nll_weight", {{5, 4}, {4}}, [t](const V &x) { return x[0].nllLoss(t, x[1]); })
          .range(0.1, 2),
      c("nll_ignore", {{5, 4}},
        [t](const V &x) { return x[0].nllLoss(t, std::nullopt, 3); }),
      c("nll_sum", {{5, 4}},
        [t](const V &x) { return x[0].nllLoss(t, std::nullopt, std::nullopt, "sum"); }),
      c("nll_3d_none", {{3, 4, 2}},
        [t2](const V &x) { return x[0].nllLoss(t2, std::nullopt, std::nullopt, "none"); }),
      c("sparse_ce", {{5, 4}}, [t](const V &x) { return x[0].sparseCategoricalCrossEntropy(t); }),
      c("sparse_ce_smooth", {{5, 4}},
        [t](const V &x) { return x[0].sparseCategoricalCrossEntropy(t, -1, 0.2, "sum"); }),
      c("layernorm", {{3, 7}}, [](const V &x) { return x[0].layernorm(); }),
      c("einsum_mm", {{3, 4}, {4, 5}},
        [](const V &x) { return Tensor::einsum("ij,jk->ik", {x[0], x[1]}); }),
      c("einsum_batch", {{2, 3, 4}, {2, 4, 5}},
        [](const V &x) { return Tensor::einsum("bij,bjk->bik", {x[0], x[1]}); }),
      c("einsum_trace", {{4, 4}}, [](const V &x) { return Tensor::einsum("ii", {x[0]}); }),
      c("einsum_diag", {{4, 4}}, [](const V &x) { return Tensor::einsum("ii->i", {x[0]}); }),
      c("einsum_outer", {{3}, {4}},
        [](const V &x) { return Tensor::einsum("i,j->ij", {x[0], x[1]}); }),
      c("einsum_ellipsis", {{2, 3, 4}, {4, 2}},
        [](const V &x) { return Tensor::einsum("...ij,...jk", {x[0], x[1]}); }),
      c("einsum_implicit", {{2, 3}, {3, 4}, {4, 2}},
        [](const V &x) { return Tensor::einsum("ij,jk,kl", {x[0], x[1], x[2]}); }),
      c("einsum_sum", {{2, 3, 4}}, [](const V &x) { return Tensor::einsum("ijk->j", {x[0]}); }),
  };
  check(cases, kNNRefs);
}

TEST_F(NNOpsTest, ShapesAndErrors) {
  Tensor x = Tensor::zeros({1, 4, 6, 6}, DType::F32, ctx);
  EXPECT_EQ(x.conv2d(Tensor::zeros({8, 2, 3, 3}, DType::F32, ctx), std::nullopt, 0, 1, 1, 2)
                .shape(),
            (Shape{1, 8, 4, 4}));
  EXPECT_EQ(x.maxPool2d(3, 2, 1, 1, true).shape(), (Shape{1, 4, 4, 4}));
  EXPECT_EQ(x.avgPool2d(4, 4, 1, 0, true).shape(), (Shape{1, 4, 2, 2}));
  EXPECT_EQ(errorOf(x.conv2d(Tensor::zeros({8, 3, 3, 3}, DType::F32, ctx), std::nullopt, 0, 1, 1,
                             2)),
            "conv2d: input (1, 4, 6, 6), weight (8, 3, 3, 3): the weight's 3 input channels "
            "times 2 groups differ from the input's 4");
  EXPECT_EQ(errorOf(x.conv2d(Tensor::zeros({7, 2, 3, 3}, DType::F32, ctx), std::nullopt, 0, 1, 1,
                             2)),
            "conv2d: input (1, 4, 6, 6), weight (7, 2, 3, 3): groups 2 must be >= 1 and divide "
            "the 7 output channels");
  EXPECT_EQ(errorOf(x.conv2d(Tensor::zeros({8, 4, 3, 3}, DType::F32, ctx), std::nullopt,
                             {1, 2, 3})),
            "conv2d: input (1, 4, 6, 6), weight (8, 4, 3, 3): padding (1, 2, 3), stride 1, "
            "dilation 1 must be one value or one per spatial axis");
  EXPECT_EQ(errorOf(x.conv1d(Tensor::zeros({8, 4, 3}, DType::F32, ctx))),
            "conv1d: input (1, 4, 6, 6), weight (8, 4, 3): needs a (N, C, L) input and a (O, C, K) "
            "weight");
  EXPECT_EQ(errorOf(x.maxPool2d(3, 1, 1, 2)),
            "maxPool2d: input (1, 4, 6, 6), kernel 3, stride 1: padding 2 must be >= 0 and at "
            "most half the kernel");
  EXPECT_EQ(errorOf(x.avgPool2d({2, 2}, 0)),
            "avgPool2d: input (1, 4, 6, 6), kernel (2, 2), stride 0: the kernel and the stride "
            "must be >= 1");
  Tensor q = Tensor::zeros({2, 4, 8}, DType::F32, ctx);
  EXPECT_EQ(errorOf(q.scaledDotProductAttention(q, q, q.sum(-1) > 0, true)),
            "scaledDotProductAttention: query (2, 4, 8), key (2, 4, 8), value (2, 4, 8): a mask "
            "and isCausal together");
  Tensor logits = Tensor::zeros({5, 4}, DType::F32, ctx);
  EXPECT_EQ(errorOf(logits.crossEntropy(Tensor::zeros({4}, DType::I32, ctx))),
            "crossEntropy: the target must be i32 class indices of shape (5,) or probabilities "
            "of shape (5, 4), got <Tensor (4,) i32>");
  EXPECT_EQ(errorOf(logits.crossEntropy(Tensor::zeros({5}, DType::I32, ctx), "max")),
            "crossEntropy: reduction \"max\" is not one of \"mean\", \"sum\", \"none\"");
  EXPECT_EQ(errorOf(logits.crossEntropy(Tensor::zeros({5}, DType::I32, ctx), "mean", 2)),
            "crossEntropy: labelSmoothing 2.000000 is not in [0, 1]");
  EXPECT_EQ(errorOf(logits.nllLoss(Tensor::zeros({5, 1}, DType::I32, ctx))),
            "nllLoss: the target must have shape (5,), got <Tensor (5, 1) i32>");
  EXPECT_EQ(errorOf(Tensor::einsum("ij,jk->ik", {logits})),
            "einsum \"ij,jk->ik\": 2 operands in the formula, 1 given");
  EXPECT_EQ(errorOf(Tensor::einsum("ij,jk->ik", {logits, logits})),
            "einsum \"ij,jk->ik\": index 'j' has sizes 4 and 5");
  EXPECT_EQ(errorOf(Tensor::einsum("ijk", {logits})),
            "einsum \"ijk\": operand 0 (5, 4) has 2 axes for subscripts \"ijk\"");
  EXPECT_EQ(errorOf(Tensor::einsum("ij->ii", {logits})),
            "einsum \"ij->ii\": the output's index 'i' is repeated");
  EXPECT_EQ(errorOf(Tensor::einsum("ij->q", {logits})),
            "einsum \"ij->q\": the output's index 'q' is not an input's");
}

} // namespace
