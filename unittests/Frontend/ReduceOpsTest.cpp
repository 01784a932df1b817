//===- ReduceOpsTest.cpp - reductions, scans and sorting ----------*- C++ -*-===//
//
// The reduction family against numpy in float64 (values, and gradients by
// finite differences): sum, prod, max, min, mean, var and std with a
// correction, any, all, argmax, argmin, softmax, logSoftmax, softmin,
// logsumexp, normalize, the scans (cumsum, cumprod, cummax, cummin,
// logcumsumexp), sort, argsort and topk; axis arguments on 0-d tensors.
//
//===----------------------------------------------------------------------===//

#include "OpsTestUtil.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace uop;
using test::OpCase;
using test::unaryFn;

namespace {

class ReduceOpsTest : public test::OpsTest {};

#define EXPECT_INTS(t, ...) EXPECT_EQ(ints(t), (std::vector<int64_t>{__VA_ARGS__}))

const char *kReduceRefs = R"py(
def lse(x, axis, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    r = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return r if keepdims else np.squeeze(r, axis=axis)
def softmax(x, axis): e = np.exp(x - x.max(axis, keepdims=True)); return e / e.sum(axis, keepdims=True)
def cummax_idx(x, axis):
    x = np.moveaxis(x, axis, -1); out = np.zeros(x.shape)
    for idx in np.ndindex(x.shape[:-1]):
        best, at = -np.inf, 0
        for j, v in enumerate(x[idx]):
            if v >= best: best, at = v, j
            out[idx + (j,)] = at
    return np.moveaxis(out, -1, axis)
REF['sum_all'] = lambda x: x.sum()
REF['sum_axes'] = lambda x: x.sum((0, 2))
REF['sum_keepdim'] = lambda x: x.sum(1, keepdims=True)
REF['prod_all'] = lambda x: np.prod(x)
REF['prod_axis'] = lambda x: np.prod(x, 1)
REF['prod_axes_keep'] = lambda x: np.prod(x, (0, 2), keepdims=True)
REF['max_axis'] = lambda x: x.max(1)
REF['min_axes'] = lambda x: x.min((0, 2))
REF['mean_axis'] = lambda x: x.mean(-1)
REF['var'] = lambda x: x.var(ddof=1)
REF['var_axis'] = lambda x: x.var(1, ddof=1)
REF['var_keepdim_c0'] = lambda x: x.var((0, 2), ddof=0, keepdims=True)
REF['var_c2'] = lambda x: x.var(-1, ddof=2)
REF['std'] = lambda x: x.std(ddof=1)
REF['std_axis'] = lambda x: x.std(0, ddof=1)
REF['std_c0'] = lambda x: x.std(-1, ddof=0)
REF['softmax'] = lambda x: softmax(x, -1)
REF['softmax_axis0'] = lambda x: softmax(x, 0)
REF['log_softmax'] = lambda x: np.log(softmax(x, 1))
REF['softmin'] = lambda x: softmax(-x, -1)
REF['logsumexp'] = lambda x: lse(x, -1)
REF['logsumexp_keep'] = lambda x: lse(x, 1, True)
REF['logsumexp_all'] = lambda x: lse(x.reshape(-1), 0)
REF['normalize'] = lambda x: x / np.maximum(np.sqrt((x * x).sum(1, keepdims=True)), 1e-12)
REF['normalize_p1'] = lambda x: x / np.maximum(np.abs(x).sum(-1, keepdims=True), 1e-12)
REF['argmax'] = lambda x: np.argmax(x, 1)
REF['argmax_all'] = lambda x: np.argmax(x)
REF['argmin_keep'] = lambda x: np.expand_dims(np.argmin(x, 2), 2)
REF['any'] = lambda x: (x > 1.5).any(1)
REF['all'] = lambda x: (x > -1.5).all(0)
REF['cumsum'] = lambda x: np.cumsum(x, 0)
REF['cumsum_axis'] = lambda x: np.cumsum(x, 1)
REF['cumsum_long'] = lambda x: np.cumsum(x, 0)
REF['cumprod'] = lambda x: np.cumprod(x, 1)
REF['cummax'] = lambda x: np.maximum.accumulate(x, 1)
REF['cummax_idx'] = lambda x: cummax_idx(x, 1)
REF['cummin'] = lambda x: np.minimum.accumulate(x, 0)
REF['logcumsumexp'] = lambda x: np.logaddexp.accumulate(x, 1)
REF['logcumsumexp_big'] = lambda x: np.logaddexp.accumulate(x, 0)
REF['sort'] = lambda x: np.sort(x, -1)
REF['sort_desc'] = lambda x: -np.sort(-x, 0)
REF['argsort'] = lambda x: np.argsort(x, 1, kind='stable')
REF['argsort_desc'] = lambda x: np.argsort(-x, -1, kind='stable')
REF['topk'] = lambda x: -np.sort(-x, -1)[..., :3]
REF['topk_small'] = lambda x: np.sort(x, 0)[:2]
REF['topk_idx'] = lambda x: np.argsort(-x, -1, kind='stable')[..., :3]
)py";

TEST_F(ReduceOpsTest, ReductionsScansAndSorts) {
  Shape s{4, 5, 6};
  auto u = [&](const char *name, std::function<Tensor(const Tensor &)> f, Shape shape = {}) {
    return OpCase(name, {shape.empty() ? s : shape}, unaryFn(std::move(f)));
  };
  std::vector<OpCase> cases = {
      u("sum_all", [](const Tensor &x) { return x.sum(); }),
      u("sum_axes", [](const Tensor &x) { return x.sum({0, 2}); }),
      u("sum_keepdim", [](const Tensor &x) { return x.sum(1, true); }),
      u("prod_all", [](const Tensor &x) { return x.prod(); }, {2, 6}).range(0.5, 1.5),
      u("prod_axis", [](const Tensor &x) { return x.prod(1); }),
      u("prod_axes_keep", [](const Tensor &x) { return x.prod({0, 2}, true); }).range(0.5, 1.5),
      u("max_axis", [](const Tensor &x) { return x.max(1); }),
      u("min_axes", [](const Tensor &x) { return x.min({0, 2}); }),
      u("mean_axis", [](const Tensor &x) { return x.mean(-1); }),
      u("var", [](const Tensor &x) { return x.var(); }),
      u("var_axis", [](const Tensor &x) { return x.var(1); }),
      u("var_keepdim_c0", [](const Tensor &x) { return x.var({0, 2}, true, 0); }),
      u("var_c2", [](const Tensor &x) { return x.var(-1, false, 2); }),
      u("std", [](const Tensor &x) { return x.std(); }),
      u("std_axis", [](const Tensor &x) { return x.std(0); }),
      u("std_c0", [](const Tensor &x) { return x.std(-1, false, 0); }),
      u("softmax", [](const Tensor &x) { return x.softmax(); }),
      u("softmax_axis0", [](const Tensor &x) { return x.softmax(0); }),
      u("log_softmax", [](const Tensor &x) { return x.logSoftmax(1); }),
      u("softmin", [](const Tensor &x) { return x.softmin(); }),
      u("logsumexp", [](const Tensor &x) { return x.logsumexp(-1); }),
      u("logsumexp_keep", [](const Tensor &x) { return x.logsumexp(1, true); }),
      u("logsumexp_all", [](const Tensor &x) { return x.logsumexp(); }),
      u("normalize", [](const Tensor &x) { return x.normalize(); }),
      u("normalize_p1", [](const Tensor &x) { return x.normalize(1, -1); }),
      u("argmax", [](const Tensor &x) { return x.argmax(1); }).forward(),
      u("argmax_all", [](const Tensor &x) { return x.argmax(); }).forward(),
      u("argmin_keep", [](const Tensor &x) { return x.argmin(2, true); }).forward(),
      u("any", [](const Tensor &x) { return (x > 1.5).any(1); }).forward(),
      u("all", [](const Tensor &x) { return (x > -1.5).all(0); }).forward(),
      u("cumsum", [](const Tensor &x) { return x.cumsum(); }),
      u("cumsum_axis", [](const Tensor &x) { return x.cumsum(1); }),
      u("cumsum_long", [](const Tensor &x) { return x.cumsum(); }, {700}).forward(),
      u("cumprod", [](const Tensor &x) { return x.cumprod(1); }).range(0.5, 1.5),
      u("cummax", [](const Tensor &x) { return x.cummax(1).first; }),
      u("cummax_idx", [](const Tensor &x) { return x.cummax(1).second; }).forward(),
      u("cummin", [](const Tensor &x) { return x.cummin(0).first; }),
      u("logcumsumexp", [](const Tensor &x) { return x.logcumsumexp(1); }),
      u("logcumsumexp_big", [](const Tensor &x) { return x.logcumsumexp(0); }, {7, 3})
          .range(-200, 200),
      u("sort", [](const Tensor &x) { return x.sort().first; }),
      u("sort_desc", [](const Tensor &x) { return x.sort(0, true).first; }),
      u("argsort", [](const Tensor &x) { return x.argsort(1); }).forward(),
      u("argsort_desc", [](const Tensor &x) { return x.argsort(-1, true); }).forward(),
      u("topk", [](const Tensor &x) { return x.topk(3).first; }),
      u("topk_small", [](const Tensor &x) { return x.topk(2, 0, false).first; }),
      u("topk_idx", [](const Tensor &x) { return x.topk(3).second; }).forward(),
  };
  check(cases, kReduceRefs);
}

TEST_F(ReduceOpsTest, TiesAndDtypes) {
  // Ties: argmax/argmin take the first, cummax's index the last, a stable
  // sort keeps the order; max's gradient shares among the tied.
  Tensor t = Tensor::fromVector({1, 3, 3, 0, 3}, ctx);
  EXPECT_INTS(t.argmax(), 1);
  EXPECT_INTS(t.argmin(), 3);
  EXPECT_INTS(t.cummax(0).second, 0, 1, 2, 2, 4);
  EXPECT_INTS(t.argsort(), 3, 0, 1, 2, 4);
  EXPECT_INTS(t.argsort(0, true), 1, 2, 4, 0, 3);
  auto g = t.max().gradient({t});
  ASSERT_TRUE(!!g);
  test::expectNear(values((*g)[0]), {0, 1.0f / 3, 1.0f / 3, 0, 1.0f / 3}, 1e-7);
  // NaN sorts last (first descending), as PyTorch's; infinities in place.
  Tensor n = Tensor::fromVector({2, NAN, -INFINITY, 1, INFINITY}, ctx);
  auto sorted = values(n.sort().first);
  EXPECT_EQ(std::vector<float>(sorted.begin(), sorted.end() - 1),
            (std::vector<float>{-INFINITY, 1, 2, INFINITY}));
  EXPECT_TRUE(std::isnan(sorted.back()));
  EXPECT_INTS(n.argsort(), 2, 3, 0, 4, 1);
  EXPECT_INTS(n.argsort(0, true), 1, 4, 0, 3, 2);
  // max, min, maximum, minimum keep a NaN wherever it is (PyTorch's; uop.max
  // alone keeps only its second operand's); argmax finds the NaN.
  for (Tensor v : {Tensor::fromVector({NAN, 1, 2}, ctx), Tensor::fromVector({1, NAN, 2}, ctx),
                   Tensor::fromVector({1, 2, NAN}, ctx)}) {
    EXPECT_TRUE(std::isnan(values(v.max())[0]));
    EXPECT_TRUE(std::isnan(values(v.min())[0]));
    EXPECT_TRUE(std::isnan(values(v.cummax(0).first).back()));
  }
  EXPECT_INTS(Tensor::fromVector({1, NAN, 2}, ctx).argmax(), 1);
  std::vector<float> mx = values(Tensor::fromVector({NAN, 1, 2}, ctx)
                                     .maximum(Tensor::fromVector({5, NAN, 1}, ctx)));
  EXPECT_TRUE(std::isnan(mx[0]) && std::isnan(mx[1]));
  EXPECT_EQ(mx[2], 2.0f);
  std::vector<float> mn = values(Tensor::fromVector({NAN, 1, 2}, ctx).minimum(0.5));
  EXPECT_TRUE(std::isnan(mn[0]));
  // The product's gradient with zeros is the product of the others.
  Tensor z = Tensor::fromVector({2, 0, 3, 4}, ctx);
  auto gp = z.prod().gradient({z});
  ASSERT_TRUE(!!gp);
  EXPECT_EQ(values((*gp)[0]), (std::vector<float>{0, 24, 0, 0}));
  // Integer scans and reductions stay integers.
  Tensor i = Tensor::fromInts({3, -1, 4, 1, -5}, {5}, ctx);
  EXPECT_INTS(i.cumsum(), 3, 2, 6, 7, 2);
  EXPECT_INTS(i.cumprod(), 3, -3, -12, -12, 60);
  EXPECT_INTS(i.prod(), 60);
  EXPECT_INTS(i.sum(), 2);
  EXPECT_EQ(i.mean().dtype(), DType::F32);
  EXPECT_EQ(values(i.mean()), std::vector<float>{0.4f});
  EXPECT_INTS(i.topk(2).first, 4, 3);
  EXPECT_INTS(i.topk(2).second, 2, 0);
  // A single element's variance with Bessel's correction is NaN (0 / 0).
  EXPECT_TRUE(std::isnan(values(Tensor::fromVector({1.0f}, ctx).var())[0]));
  // logsumexp of -inf is -inf, of +inf +inf.
  EXPECT_EQ(values(Tensor::fromVector({-INFINITY, -INFINITY}, ctx).logsumexp()),
            std::vector<float>{-INFINITY});
  EXPECT_EQ(values(Tensor::fromVector({INFINITY, 1}, ctx).logsumexp()),
            std::vector<float>{INFINITY});
}

// PyTorch takes axis 0 and -1 of a 0-d tensor (and no other).
TEST_F(ReduceOpsTest, AxisArgumentsOnScalars) {
  Tensor s = Tensor::full({}, 2.5, DType::F32, ctx);
  for (int64_t a : {0, -1}) {
    SCOPED_TRACE(a);
    EXPECT_EQ(s.sum(a).shape(), Shape{});
    EXPECT_EQ(values(s.sum(a)), std::vector<float>{2.5f});
    EXPECT_EQ(values(s.sum(a, true)), std::vector<float>{2.5f});
    EXPECT_EQ(values(s.max(a)), std::vector<float>{2.5f});
    EXPECT_EQ(values(s.min(a)), std::vector<float>{2.5f});
    EXPECT_EQ(values(s.mean(a)), std::vector<float>{2.5f});
    EXPECT_EQ(values(s.prod(a)), std::vector<float>{2.5f});
    EXPECT_EQ(values(s.softmax(a)), std::vector<float>{1});
    EXPECT_EQ(values(s.logSoftmax(a)), std::vector<float>{0});
    EXPECT_EQ(values(s.logsumexp(a)), std::vector<float>{2.5f});
    EXPECT_INTS(s.argmax(a), 0);
    EXPECT_INTS(s.argmin(a), 0);
    EXPECT_EQ(values(s.cumsum(a)), std::vector<float>{2.5f});
    EXPECT_EQ(values(s.cummax(a).first), std::vector<float>{2.5f});
    EXPECT_EQ(values(s.sort(a).first), std::vector<float>{2.5f});
    EXPECT_EQ(values(s.any(a)), std::vector<float>{1});
    EXPECT_EQ(values(s.all(a)), std::vector<float>{1});
    EXPECT_EQ(s.unsqueeze(a).shape(), Shape{1});
    EXPECT_EQ(s.squeeze(a).shape(), Shape{});
    EXPECT_EQ(s.flip(a).shape(), Shape{});
  }
  EXPECT_EQ(s.flatten().shape(), Shape{1});
  EXPECT_EQ(errorOf(s.sum(1)), "sum: axis 1 is out of range for shape ()");
  EXPECT_EQ(errorOf(s.max(-2)), "max: axis -2 is out of range for shape ()");
  EXPECT_EQ(errorOf(s.argmax(1)), "argmax: axis 1 is out of range for shape ()");
  EXPECT_EQ(errorOf(s.cumsum(2)), "cumsum: axis 2 is out of range for shape ()");
}

TEST_F(ReduceOpsTest, Errors) {
  Tensor a = Tensor::zeros({2, 3}, DType::F32, ctx);
  EXPECT_EQ(errorOf(a.prod(2)), "prod: axis 2 is out of range for shape (2, 3)");
  EXPECT_EQ(errorOf(a.var({0, 0})), "sum: axis 0 given twice");
  EXPECT_EQ(errorOf(a.sort(3).first), "sort: axis 3 is out of range for shape (2, 3)");
  EXPECT_EQ(errorOf(a.topk(4).first),
            "topk: k = 4 is out of range for the 3 elements of axis -1 of (2, 3)");
  EXPECT_EQ(errorOf(a.cummax(-3).first), "cummax: axis -3 is out of range for shape (2, 3)");
  EXPECT_EQ(errorOf(a.logcumsumexp(5)), "logcumsumexp: axis 5 is out of range for shape (2, 3)");
  EXPECT_EQ(errorOf(a.argmin(2)), "argmin: axis 2 is out of range for shape (2, 3)");
}

} // namespace
