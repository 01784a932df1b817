//===- MovementOpsTest.cpp - movement and indexing ---------------*- C++ -*-===//
//
// The movement and indexing family against numpy (values, and gradients by
// finite differences in float64): strided and negative-step slices, Python
// indexing with ints, slices, new axes, ellipses and integer tensors, the
// pad modes and negative pads, split, chunk, unfold, roll, repeat,
// repeatInterleave, tril/triu, diag/diagonal, flatten/unflatten, squeeze,
// gather, scatter, scatterReduce, maskedFill, maskedSelect, where with
// scalars, interpolate (nearest, nearest-exact, linear, bilinear,
// trilinear, aligned corners); and the errors of bad arguments.
//
//===----------------------------------------------------------------------===//

#include "OpsTestUtil.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace uop;
using test::OpCase;
using test::unaryFn;

namespace {

class MovementOpsTest : public test::OpsTest {};

#define EXPECT_INTS(t, ...) EXPECT_EQ(ints(t), (std::vector<int64_t>{__VA_ARGS__}))
#define EXPECT_VALUES(t, ...) EXPECT_EQ(values(t), (std::vector<float>{__VA_ARGS__}))

const char *kMovementRefs = R"py(
from numpy.lib.stride_tricks import sliding_window_view as sw
def unfold(x, dim, size, step):
    w = sw(x, size, axis=dim)
    sl = [slice(None)] * w.ndim; sl[dim] = slice(None, None, step)
    return w[tuple(sl)]
def scatter(x, dim, idx, src):
    out = x.copy()
    for p in np.ndindex(idx.shape):
        q = list(p); q[dim] = idx[p]; out[tuple(q)] = src[p]
    return out
def scatter_reduce(x, dim, idx, src, red, include_self=True):
    out = x.copy(); acc = {}
    for p in np.ndindex(idx.shape):
        q = list(p); q[dim] = idx[p]; acc.setdefault(tuple(q), []).append(src[p])
    for q, vs in acc.items():
        vals = ([x[q]] if include_self else []) + vs
        out[q] = {'sum': np.sum, 'prod': np.prod, 'mean': np.mean, 'amax': np.max, 'amin': np.min}[red](vals)
    return out
def interp_axis(x, axis, out, mode, align=False):
    n = x.shape[axis]; i = np.arange(out, dtype=np.float64)
    if mode == 'nearest': src = np.minimum(np.floor(i * n / out), n - 1).astype(int); return np.take(x, src, axis)
    if mode == 'nearest-exact': src = np.minimum(np.floor((i + 0.5) * n / out), n - 1).astype(int); return np.take(x, src, axis)
    if align: s = i * ((n - 1) / (out - 1)) if out > 1 else np.zeros(out)
    else: s = np.maximum((i + 0.5) * n / out - 0.5, 0)
    s0 = np.floor(s).astype(int); s1 = np.minimum(s0 + 1, n - 1); w = s - s0
    shape = [1] * x.ndim; shape[axis] = out
    return np.take(x, s0, axis) * (1 - w.reshape(shape)) + np.take(x, s1, axis) * w.reshape(shape)
def interp(x, size, mode, align=False):
    for k in range(1, len(size) + 1): x = interp_axis(x, x.ndim - k, size[-k], mode, align)
    return x
IDX = np.array([[0, 2, 1], [1, 0, 0]])
REF['slice_step'] = lambda x: x[::2, 1::3]
REF['slice_neg'] = lambda x: x[::-1, -1:0:-2]
REF['slice_neg_all'] = lambda x: x[4:1:-1]
REF['index_basic'] = lambda x: x[1, :, None, ::2]
REF['index_ellipsis'] = lambda x: x[..., 2]
REF['index_tensor'] = lambda x: x[np.array([3, 0, -1])]
REF['index_tensors'] = lambda x: x[np.array([[0], [2]]), :, np.array([1, 3])]
REF['index_tensor_mid'] = lambda x: x[:, np.array([0, 4, 4])]
REF['pad_const'] = lambda x: np.pad(x, ((1, 2), (0, 3)), constant_values=-1.5)
REF['pad_neg'] = lambda x: np.pad(x[1:, :-2], ((0, 0), (2, 0)))
REF['pad_reflect'] = lambda x: np.pad(x, ((2, 1), (3, 0)), mode='reflect')
REF['pad_replicate'] = lambda x: np.pad(x, ((0, 2), (1, 4)), mode='edge')
REF['pad_circular'] = lambda x: np.pad(x, ((1, 2), (2, 1)), mode='wrap')
REF['pad_flat'] = lambda x: np.pad(x, ((3, 1), (1, 2)))
REF['split'] = lambda x: np.split(x, [1, 4], 0)[1]
REF['chunk'] = lambda x: np.array_split(x, [2, 4], 1)[2]
REF['unfold'] = lambda x: unfold(x, 1, 3, 2)
REF['roll'] = lambda x: np.roll(x, (2, -1), (0, 1))
REF['roll_flat'] = lambda x: np.roll(x, 7)
REF['repeat'] = lambda x: np.tile(x, (2, 1, 3))
REF['repeat_interleave'] = lambda x: np.repeat(x, 3, 1)
REF['repeat_interleave_flat'] = lambda x: np.repeat(x, 2)
REF['tril'] = lambda x: np.tril(x)
REF['triu'] = lambda x: np.triu(x, 1)
REF['tril_neg'] = lambda x: np.tril(x, -2)
REF['diag'] = lambda x: np.diag(x)
REF['diag_of_matrix'] = lambda x: np.diag(x)
REF['diagonal'] = lambda x: np.diagonal(x, 1, 0, 1)
REF['diagonal_neg'] = lambda x: np.diagonal(x, -1, 1, 2)
REF['flatten_mid'] = lambda x: x.reshape(x.shape[0], -1)
REF['unflatten'] = lambda x: x.reshape(5, 2, 3)
REF['gather'] = lambda x: np.take_along_axis(x[:2], IDX, 1)
REF['gather0'] = lambda x: np.take_along_axis(x[:, :3], IDX, 0)
REF['scatter'] = lambda x, s: scatter(x, 1, IDX, s)
REF['scatter_add'] = lambda x, s: scatter_reduce(x, 1, IDX, s, 'sum')
REF['scatter_reduce_amax'] = lambda x, s: scatter_reduce(x, 0, IDX, s, 'amax')
REF['scatter_reduce_mean_excl'] = lambda x, s: scatter_reduce(x, 1, IDX, s, 'mean', False)
REF['scatter_reduce_prod'] = lambda x, s: scatter_reduce(x, 1, IDX, s, 'prod')
REF['masked_fill'] = lambda x: np.where(x > 0.5, -9.0, x)
REF['where_scalar'] = lambda x: np.where(x > 0, x, 0.25)
REF['where_scalar_left'] = lambda x: np.where(x > 0, 2.0, x)
REF['masked_select'] = lambda x: x[x > 0]
def padded(v, n, fill): return np.concatenate([v, np.full(max(n - v.size, 0), fill)])[:n]
REF['masked_select_size'] = lambda x: padded(x[x > 0], 20, -3.0)
REF['masked_select_trunc'] = lambda x: padded(x[x > 0], 4, 0.0)
REF['nonzero'] = lambda x: np.argwhere(x > 0.5)
REF['nonzero_size'] = lambda x: np.concatenate([np.argwhere(x > 0.5), np.full((40, 2), -1)])[:40]
REF['interp_nearest'] = lambda x: interp(x, (7,), 'nearest')
REF['interp_nearest_exact'] = lambda x: interp(x, (3, 7), 'nearest-exact')
REF['interp_linear'] = lambda x: interp(x, (9,), 'linear')
REF['interp_linear_down'] = lambda x: interp(x, (2,), 'linear')
REF['interp_bilinear'] = lambda x: interp(x, (7, 3), 'linear')
REF['interp_bilinear_aligned'] = lambda x: interp(x, (7, 8), 'linear', True)
REF['interp_trilinear'] = lambda x: interp(x, (3, 5, 4), 'linear')
)py";

TEST_F(MovementOpsTest, MovementAndIndexing) {
  Shape m{5, 6};
  auto u = [&](const char *name, Shape shape, std::function<Tensor(const Tensor &)> f) {
    return OpCase(name, {shape}, unaryFn(std::move(f)));
  };
  auto idx = [&] { return Tensor::fromInts({0, 2, 1, 1, 0, 0}, {2, 3}, ctx); };
  std::vector<OpCase> cases = {
      u("slice_step", m, [](const Tensor &x) { return x.index({Slice({}, {}, 2), Slice(1, {}, 3)}); }),
      u("slice_neg", m,
        [](const Tensor &x) { return x.index({Slice({}, {}, -1), Slice(-1, 0, -2)}); }),
      u("slice_neg_all", {6}, [](const Tensor &x) { return x.slice(0, Slice(4, 1, -1)); }),
      u("index_basic", {3, 4, 5},
        [](const Tensor &x) {
          return x.index({1, Slice(), TensorIndex::newAxis(), Slice({}, {}, 2)});
        }),
      u("index_ellipsis", {3, 4, 5},
        [](const Tensor &x) { return x.index({TensorIndex::ellipsis(), 2}); }),
      u("index_tensor", m,
        [this](const Tensor &x) { return x.index({Tensor::fromInts({3, 0, -1}, {3}, ctx)}); }),
      u("index_tensors", {3, 4, 5},
        [this](const Tensor &x) {
          return x.index({Tensor::fromInts({0, 2}, {2, 1}, ctx), Slice(),
                          Tensor::fromInts({1, 3}, {2}, ctx)});
        }),
      u("index_tensor_mid", m,
        [this](const Tensor &x) {
          return x.index({Slice(), Tensor::fromInts({0, 4, 4}, {3}, ctx)});
        }),
      u("pad_const", m, [](const Tensor &x) { return x.pad({{1, 2}, {0, 3}}, "constant", -1.5); }),
      u("pad_neg", m, [](const Tensor &x) { return x.pad({{-1, 0}, {2, -2}}); }),
      u("pad_reflect", m, [](const Tensor &x) { return x.pad({{2, 1}, {3, 0}}, "reflect"); }),
      u("pad_replicate", m, [](const Tensor &x) { return x.pad({{0, 2}, {1, 4}}, "replicate"); }),
      u("pad_circular", m, [](const Tensor &x) { return x.pad({{1, 2}, {2, 1}}, "circular"); }),
      u("pad_flat", m, [](const Tensor &x) { return x.padFlat({1, 2, 3, 1}); }),
      u("split", m, [](const Tensor &x) { return x.split(std::vector<int64_t>{1, 3, 1}, 0)[1]; }),
      u("chunk", m, [](const Tensor &x) { return x.chunk(3, 1)[2]; }),
      u("unfold", {3, 8}, [](const Tensor &x) { return x.unfold(1, 3, 2); }),
      u("roll", m, [](const Tensor &x) { return x.roll({2, -1}, {0, 1}); }),
      u("roll_flat", m, [](const Tensor &x) { return x.roll(7); }),
      u("repeat", {2, 3}, [](const Tensor &x) { return x.repeat({2, 1, 3}); }),
      u("repeat_interleave", {2, 3}, [](const Tensor &x) { return x.repeatInterleave(3, 1); }),
      u("repeat_interleave_flat", {2, 3}, [](const Tensor &x) { return x.repeatInterleave(2); }),
      u("tril", m, [](const Tensor &x) { return x.tril(); }),
      u("triu", m, [](const Tensor &x) { return x.triu(1); }),
      u("tril_neg", m, [](const Tensor &x) { return x.tril(-2); }),
      u("diag", {4}, [](const Tensor &x) { return x.diag(); }),
      u("diag_of_matrix", m, [](const Tensor &x) { return x.diag(); }),
      u("diagonal", m, [](const Tensor &x) { return x.diagonal(1); }),
      u("diagonal_neg", {2, 4, 3}, [](const Tensor &x) { return x.diagonal(-1, 1, 2); }),
      u("flatten_mid", {2, 3, 4}, [](const Tensor &x) { return x.flatten(1); }),
      u("unflatten", m, [](const Tensor &x) { return x.unflatten(1, {2, -1}); }),
      u("gather", m, [idx](const Tensor &x) { return x.gather(1, idx()); }),
      u("gather0", m, [idx](const Tensor &x) { return x.gather(0, idx()); }),
      OpCase("scatter", {{3, 4}, {2, 3}},
             [idx](const std::vector<Tensor> &x) { return x[0].scatter(1, idx(), x[1]); }),
      OpCase("scatter_add", {{3, 4}, {2, 3}},
             [idx](const std::vector<Tensor> &x) { return x[0].scatter(1, idx(), x[1], "add"); }),
      OpCase("scatter_reduce_amax", {{3, 4}, {2, 3}},
             [idx](const std::vector<Tensor> &x) {
               return x[0].scatterReduce(0, idx(), x[1], "amax");
             }),
      OpCase("scatter_reduce_mean_excl", {{3, 4}, {2, 3}},
             [idx](const std::vector<Tensor> &x) {
               return x[0].scatterReduce(1, idx(), x[1], "mean", false);
             }),
      OpCase("scatter_reduce_prod", {{3, 4}, {2, 3}},
             [idx](const std::vector<Tensor> &x) {
               return x[0].scatterReduce(1, idx(), x[1], "prod");
             }),
      u("masked_fill", m, [](const Tensor &x) { return x.maskedFill(x > 0.5, -9.0); }),
      u("where_scalar", m, [](const Tensor &x) { return (x > 0).where(x, 0.25); }),
      u("where_scalar_left", m, [](const Tensor &x) { return (x > 0).where(2.0, x); }),
      u("masked_select", m, [](const Tensor &x) { return x.maskedSelect(x > 0); }),
      u("masked_select_size", m, [](const Tensor &x) { return x.maskedSelect(x > 0, 20, -3.0); }),
      u("masked_select_trunc", m, [](const Tensor &x) { return x.maskedSelect(x > 0, 4); }),
      u("nonzero", m, [](const Tensor &x) { return (x > 0.5).nonzero(); }).forward(),
      u("nonzero_size", m, [](const Tensor &x) { return (x > 0.5).nonzero(40, -1); }).forward(),
      u("interp_nearest", {2, 3, 4},
        [](const Tensor &x) { return x.interpolate({7}, "nearest"); }),
      u("interp_nearest_exact", {2, 5, 4},
        [](const Tensor &x) { return x.interpolate({3, 7}, "nearest-exact"); }),
      u("interp_linear", {2, 3, 4}, [](const Tensor &x) { return x.interpolate({9}); }),
      u("interp_linear_down", {2, 3, 5}, [](const Tensor &x) { return x.interpolate({2}); }),
      u("interp_bilinear", {1, 2, 4, 5}, [](const Tensor &x) { return x.interpolate({7, 3}); }),
      u("interp_bilinear_aligned", {1, 2, 4, 5},
        [](const Tensor &x) { return x.interpolate({7, 8}, "linear", true); }),
      u("interp_trilinear", {1, 1, 2, 3, 4},
        [](const Tensor &x) { return x.interpolate({3, 5, 4}); }),
  };
  check(cases, kMovementRefs);
}

TEST_F(MovementOpsTest, ShapesOfTheHelpers) {
  Tensor x = Tensor::arange(0, 10, 1, DType::F32, ctx).reshape({5, 2});
  auto pieces = x.split(2);
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[2].shape(), (Shape{1, 2}));
  EXPECT_EQ(x.chunk(2).size(), 2u);
  EXPECT_EQ(x.chunk(2)[1].shape(), (Shape{2, 2}));
  // tinygrad's test_chunk: 11 and 13 elements in 6 chunks are 6 and 5 chunks.
  EXPECT_EQ(Tensor::arange(11, ctx).chunk(6).size(), 6u);
  EXPECT_EQ(Tensor::arange(13, ctx).chunk(6).size(), 5u);
  Tensor y = Tensor::zeros({2, 1, 2, 1, 2}, DType::F32, ctx);
  EXPECT_EQ(y.squeeze().shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(y.squeeze(1).shape(), (Shape{2, 2, 1, 2}));
  EXPECT_EQ(y.squeeze(0).shape(), y.shape()); // not size 1: unchanged
  EXPECT_EQ(y.flatten(1, 3).shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(y.flatten(-2).shape(), (Shape{2, 1, 2, 2}));
  EXPECT_EQ(y.unflatten(-1, {1, 2}).shape(), (Shape{2, 1, 2, 1, 1, 2}));
  EXPECT_EQ(Tensor::zeros({3, 4}, DType::F32, ctx).unfold(0, 2, 1).shape(), (Shape{2, 4, 2}));
  EXPECT_INTS(Tensor::arange(8, ctx).unfold(0, 2, 2), 0, 1, 2, 3, 4, 5, 6, 7);
  EXPECT_INTS(Tensor::fromInts({1, 2, 3}, {3}, ctx).repeatInterleave(2), 1, 1, 2, 2, 3, 3);
  EXPECT_INTS(Tensor::fromInts({1, 2, 3}, {3}, ctx).repeat({2}), 1, 2, 3, 1, 2, 3);
  EXPECT_INTS(Tensor::arange(4, ctx).roll(1), 3, 0, 1, 2);
  EXPECT_INTS(Tensor::arange(4, ctx).roll(-5), 1, 2, 3, 0);
  EXPECT_INTS(Tensor::arange(6, ctx).index({Slice({}, {}, -1)}), 5, 4, 3, 2, 1, 0);
  EXPECT_INTS(Tensor::arange(6, ctx).index({Slice(5, 0, -2)}), 5, 3, 1);
  EXPECT_INTS(Tensor::arange(6, ctx).index({Slice(-2, {}, -3)}), 4, 1);
  EXPECT_INTS(Tensor::arange(6, ctx).index({Slice(10, 20)}));
  EXPECT_EQ(Tensor::arange(6, ctx).index({Slice(10, 20)}).shape(), Shape{0});
  // Exact with infinities and NaN (a select, not a multiply by 0/1).
  Tensor inf = Tensor::fromVector({INFINITY, 1, -INFINITY, 3}, ctx);
  EXPECT_VALUES(inf.flip(0), 3, -INFINITY, 1, INFINITY);
  EXPECT_VALUES(inf.index({Slice({}, {}, -2)}), 3, 1);
  EXPECT_VALUES(inf.gather(0, Tensor::fromInts({2, 0}, {2}, ctx)), -INFINITY, INFINITY);
  EXPECT_VALUES(inf.index({Tensor::fromInts({0, 2}, {2}, ctx)}), INFINITY, -INFINITY);
  // meshgrid, ij and xy.
  Tensor a = Tensor::fromInts({1, 2, 3}, {3}, ctx), b = Tensor::fromInts({4, 5}, {2}, ctx);
  auto ij = Tensor::meshgrid({a, b});
  ASSERT_EQ(ij.size(), 2u);
  EXPECT_EQ(ij[0].shape(), (Shape{3, 2}));
  EXPECT_INTS(ij[0], 1, 1, 2, 2, 3, 3);
  EXPECT_INTS(ij[1], 4, 5, 4, 5, 4, 5);
  auto xy = Tensor::meshgrid({a, b}, "xy");
  EXPECT_EQ(xy[0].shape(), (Shape{2, 3}));
  EXPECT_INTS(xy[0], 1, 2, 3, 1, 2, 3);
  EXPECT_INTS(xy[1], 4, 4, 4, 5, 5, 5);
}

TEST_F(MovementOpsTest, Errors) {
  Tensor x = Tensor::zeros({3, 4}, DType::F32, ctx);
  EXPECT_EQ(errorOf(x.index({0, 0, 0})), "index: 3 indices for the 2 axes of (3, 4)");
  EXPECT_EQ(errorOf(x.index({5})), "index: index 5 is out of range for axis 0 of (3, 4)");
  EXPECT_EQ(errorOf(x.index({TensorIndex::ellipsis(), TensorIndex::ellipsis()})),
            "index: more than one ellipsis");
  EXPECT_EQ(errorOf(x.index({x})), "index: indices must be an i32 tensor, got <Tensor (3, 4) f32>");
  EXPECT_EQ(errorOf(x.slice(0, Slice(0, 3, 0))), "slice: the step must not be zero");
  EXPECT_EQ(errorOf(x.pad({{0, 0}, {4, 0}}, "reflect")),
            "pad: reflect padding (4, 0) of axis 1 must be less than its size 4");
  EXPECT_EQ(errorOf(x.pad({{0, 0}, {5, 0}}, "circular")),
            "pad: circular padding (5, 0) of axis 1 of (3, 4) wraps around more than once");
  EXPECT_EQ(errorOf(x.pad({{-2, -2}, {0, 0}})),
            "pad: padding (-2, -2) of axis 0 of (3, 4) leaves a negative size");
  EXPECT_EQ(errorOf(x.padFlat({1, 2, 3})),
            "padFlat: 3 flat paddings: need an even number, two per axis at most for shape (3, 4)");
  EXPECT_EQ(errorOf(x.split(std::vector<int64_t>{1, 1})[0]),
            "split: sizes (1, 1) sum to 2, not to the 3 of axis 0 of (3, 4)");
  EXPECT_EQ(errorOf(x.chunk(0)[0]), "chunk: the number of chunks must be positive, got 0");
  EXPECT_EQ(errorOf(x.unfold(1, 5, 1)),
            "unfold: size 5 and step 1 do not fit the 4 elements of axis 1 (0 <= size <= 4, step > 0)");
  EXPECT_EQ(errorOf(x.repeat({2})), "repeat: 1 repeats for the 2 axes of (3, 4)");
  EXPECT_EQ(errorOf(x.roll({1, 2}, {0})), "roll: 2 shifts for 1 axes");
  EXPECT_EQ(errorOf(x.reshape({12}).tril()), "tril: needs at least 2 axes, got (12,)");
  EXPECT_EQ(errorOf(x.diagonal(0, 1, 1)), "diagonal: dim1 and dim2 are both axis 1");
  EXPECT_EQ(errorOf(x.gather(1, Tensor::zeros({3}, DType::I32, ctx))),
            "gather: the index (3,) must have the rank of (3, 4)");
  EXPECT_EQ(errorOf(x.gather(1, Tensor::zeros({4, 1}, DType::I32, ctx))),
            "gather: the index (4, 1) is larger than (3, 4) off axis 1");
  EXPECT_EQ(errorOf(x.scatter(0, Tensor::zeros({1, 1}, DType::I32, ctx), 1.0, "min")),
            "scatter: reduce \"min\" is not one of \"add\", \"multiply\"");
  EXPECT_EQ(errorOf(x.maskedSelect(x)), "maskedSelect: the mask must be bool, got <Tensor (3, 4) f32>");
  EXPECT_EQ(errorOf(x.interpolate({2}, "cubic")),
            "interpolate: mode \"cubic\" is not one of \"linear\", \"nearest\", \"nearest-exact\"");
  EXPECT_EQ(errorOf(x.unflatten(1, {3, -1})),
            "unflatten: sizes (3, -1) do not multiply to 4, axis 1 of (3, 4)");
  EXPECT_EQ(errorOf(x.flatten(1, 0)), "flatten: start axis 1 is after end axis 0 of (3, 4)");
  EXPECT_EQ(errorOf(Tensor::meshgrid({x})[0]), "meshgrid: needs 0-d or 1-D tensors, got <Tensor (3, 4) f32>");
}

} // namespace
