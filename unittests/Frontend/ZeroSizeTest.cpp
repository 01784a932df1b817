//===- ZeroSizeTest.cpp - tensors with a zero-sized axis ---------*- C++ -*-===//
//
// Tensors with a zero-sized axis give PyTorch's results: empty values
// (realized without a program), reductions over an empty axis their
// identity (0, 1, NaN for means and variances, false for any, true for
// all; an error for max, min and argmax, which have none), empty scans
// and sorts, matmuls with an empty inner axis of zeros, empty slices,
// pads and cats of empty pieces; and their gradients.
//
//===----------------------------------------------------------------------===//

#include "OpsTestUtil.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace uop;
using test::OpCase;

namespace {

class ZeroSizeTest : public test::OpsTest {};

const char *kZeroRefs = R"py(
REF['sum0'] = lambda x: x.sum(0)
REF['sum1'] = lambda x: x.sum(1)
REF['sum01'] = lambda x: x.sum((0, 1))
REF['prod1'] = lambda x: np.prod(x, 1)
REF['mean13'] = lambda x: x.mean((1, 3))
REF['var13'] = lambda x: x.var((1, 3), ddof=1)
REF['var13_c0'] = lambda x: x.var((1, 3), ddof=0)
REF['std13_c5'] = lambda x: x.std((1, 3), ddof=5)
REF['var_one'] = lambda x: x.var((0, 3), ddof=1)
REF['cumsum_empty'] = lambda x: np.cumsum(x, 1)
REF['mm_k0'] = lambda x, y: x @ y
REF['mm_m0'] = lambda x, y: x @ y
REF['mm_all0'] = lambda x, y: x @ y
REF['mm_vec0'] = lambda x, y: x @ y
REF['slice_empty'] = lambda x: x[1:1]
REF['slice_empty_neg'] = lambda x: x[-2:-5]
REF['pad_empty'] = lambda x: np.pad(x, ((1, 1), (2, 0)), constant_values=3.0)
REF['cat_empty'] = lambda x, y: np.concatenate([x, y], 0)
REF['exp_empty'] = np.exp
REF['logsumexp_empty'] = lambda x: np.log(np.exp(x).sum(1))
)py";

TEST_F(ZeroSizeTest, AgainstNumpy) {
  using V = std::vector<Tensor>;
  auto c = [](const char *name, std::vector<Shape> shapes, std::function<Tensor(const V &)> f) {
    return OpCase(name, std::move(shapes), std::move(f));
  };
  std::vector<OpCase> cases = {
      c("sum0", {{4, 0}}, [](const V &x) { return x[0].sum(0); }),
      c("sum1", {{4, 0}}, [](const V &x) { return x[0].sum(1); }),
      c("sum01", {{4, 0}}, [](const V &x) { return x[0].sum({0, 1}); }),
      c("prod1", {{4, 0}}, [](const V &x) { return x[0].prod(1); }),
      c("mean13", {{1, 0, 3, 0, 5}}, [](const V &x) { return x[0].mean({1, 3}); }),
      c("var13", {{1, 0, 3, 0, 5}}, [](const V &x) { return x[0].var({1, 3}); }),
      c("var13_c0", {{1, 0, 3, 0, 5}}, [](const V &x) { return x[0].var({1, 3}, false, 0); }),
      c("std13_c5", {{1, 0, 3, 0, 5}}, [](const V &x) { return x[0].std({1, 3}, false, 5); }),
      c("var_one", {{1, 2, 3, 1, 5}}, [](const V &x) { return x[0].var({0, 3}); }),
      c("cumsum_empty", {{2, 0, 4}}, [](const V &x) { return x[0].cumsum(1); }),
      c("mm_k0", {{8, 0}, {0, 8}}, [](const V &x) { return x[0].matmul(x[1]); }),
      c("mm_m0", {{0, 8}, {8, 8}}, [](const V &x) { return x[0].matmul(x[1]); }),
      c("mm_all0", {{0, 0}, {0, 0}}, [](const V &x) { return x[0].matmul(x[1]); }),
      c("mm_vec0", {{0}, {0, 8}}, [](const V &x) { return x[0].matmul(x[1]); }),
      c("slice_empty", {{10, 10}}, [](const V &x) { return x[0].index({Slice(1, 1)}); }),
      c("slice_empty_neg", {{3, 3, 3}}, [](const V &x) { return x[0].index({Slice(-2, -5)}); }),
      c("pad_empty", {{0, 3}}, [](const V &x) { return x[0].pad({{1, 1}, {2, 0}}, "constant", 3); }),
      c("cat_empty", {{0, 3}, {2, 3}}, [](const V &x) { return Tensor::cat({x[0], x[1]}); }),
      c("exp_empty", {{3, 0}}, [](const V &x) { return x[0].exp(); }),
      c("logsumexp_empty", {{2, 0}}, [](const V &x) { return x[0].logsumexp(1); }),
  };
  check(cases, kZeroRefs);
}

TEST_F(ZeroSizeTest, IdentitiesShapesAndErrors) {
  Tensor e = Tensor::zeros({2, 0, 3}, DType::F32, ctx);
  EXPECT_EQ(e.numel(), 0);
  EXPECT_TRUE(e.isRealized());
  auto v = e.numpy();
  ASSERT_TRUE(!!v);
  EXPECT_EQ(v->shape(), (Shape{2, 0, 3}));
  EXPECT_EQ(values(e.any(1)), std::vector<float>(6, 0));
  EXPECT_EQ(values(e.all(1)), std::vector<float>(6, 1));
  EXPECT_EQ(values(e.prod()), std::vector<float>{1});
  EXPECT_EQ(e.sum(0).shape(), (Shape{0, 3}));
  EXPECT_EQ((e + 1).shape(), (Shape{2, 0, 3}));
  EXPECT_EQ(e.reshape({0, 5}).shape(), (Shape{0, 5}));
  EXPECT_EQ(e.permute({2, 0, 1}).shape(), (Shape{3, 2, 0}));
  EXPECT_EQ(e.expand({4, 2, 0, 3}).shape(), (Shape{4, 2, 0, 3}));
  EXPECT_EQ(e.max(0).shape(), (Shape{0, 3})); // no empty axis reduced
  EXPECT_EQ(e.sort(1).first.shape(), (Shape{2, 0, 3}));
  EXPECT_EQ(e.cummax(1).second.dtype(), DType::I32);
  EXPECT_EQ(e.flip(1).shape(), (Shape{2, 0, 3}));
  EXPECT_EQ(e.split(1, 1).size(), 1u);
  EXPECT_EQ(e.chunk(2, 1).size(), 2u);
  EXPECT_EQ(e.repeat({2, 1, 1}).shape(), (Shape{4, 0, 3}));
  EXPECT_EQ(Tensor::stack({e, e}, 1).shape(), (Shape{2, 2, 0, 3}));
  EXPECT_EQ(Tensor::fromVector({}, {0}, ctx).shape(), Shape{0});
  EXPECT_EQ(Tensor::arange(0, ctx).shape(), Shape{0});
  EXPECT_EQ(Tensor::arange(5, 2, 1, std::nullopt, ctx).shape(), Shape{0});
  EXPECT_EQ(Tensor::linspace(0, 1, 0, DType::F32, ctx).shape(), Shape{0});
  EXPECT_EQ(Tensor::eye(0, 3, DType::F32, ctx).shape(), (Shape{0, 3}));
  EXPECT_EQ(Tensor::randn({0, 4}, ctx).shape(), (Shape{0, 4}));
  // max, min and argmax of nothing have no identity: PyTorch's error.
  EXPECT_EQ(errorOf(e.max(1)), "max: cannot reduce over a zero-sized axis of (2, 0, 3) (no identity)");
  EXPECT_EQ(errorOf(e.min()), "min: cannot reduce over a zero-sized axis of (2, 0, 3) (no identity)");
  EXPECT_EQ(errorOf(e.argmax(1)),
            "argmax: cannot reduce over the zero-sized axis 1 of (2, 0, 3)");
  // A program with an empty tensor among others realizes the others.
  Tensor a = Tensor::ones({2}, DType::F32, ctx) * 3;
  ASSERT_FALSE(!!Tensor::realizeAll({a, e + 1}));
  EXPECT_EQ(values(a), (std::vector<float>{3, 3}));
  // The gradient of an empty input is empty.
  Tensor x = Tensor::uniform({3, 0}, -1, 1, ctx);
  auto g = (x.sum() + 1).gradient({x});
  ASSERT_TRUE(!!g);
  EXPECT_EQ((*g)[0].shape(), (Shape{3, 0}));
}

} // namespace
