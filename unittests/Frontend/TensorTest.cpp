//===- TensorTest.cpp - the lazy Tensor frontend -----------------*- C++ -*-===//
//
// The forward-value parts of the seed's tests/test_w05_tensor.py (test_ops
// against numpy and against the seed itself, promotion, deleted reads), plus
// creation, broadcasting, reductions with axis/keepdim, matmul, softmax,
// the structural cache over 100 steps, aliased outputs, buffer lifetimes and
// the error cases.
//
//===----------------------------------------------------------------------===//

#include "Uop/Frontend/Tensor.h"

#include "FrontendTestUtil.h"
#include "Uop/Runtime/Npy.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace uop;

namespace {

/// The frontend fixture (a private cache, a context, values(), the seed
/// script runner) plus what these tests add.
class TensorTest : public test::FrontendTest {
protected:
  /// The error that realizing `t` reports ("" when it realizes).
  static std::string realizeError(const Tensor &t) {
    auto r = t.realize();
    return r ? std::string() : llvm::toString(r.takeError());
  }
  static std::vector<float> seq(int64_t n, float start = 0, float step = 1) {
    std::vector<float> v(n);
    for (int64_t i = 0; i < n; ++i)
      v[i] = start + step * i;
    return v;
  }
};

#define EXPECT_VALUES(t, ...) EXPECT_EQ(values(t), (std::vector<float>{__VA_ARGS__}))

using test::expectNear;

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

TEST_F(TensorTest, Creation) {
  Tensor f = Tensor::full({2, 3}, 2.5, DType::F32, ctx);
  EXPECT_EQ(f.shape(), (Shape{2, 3}));
  EXPECT_EQ(f.dtype(), DType::F32);
  EXPECT_VALUES(f, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5);
  EXPECT_VALUES(Tensor::zeros({3}, DType::F32, ctx), 0, 0, 0);
  Tensor o = Tensor::ones({2, 2}, DType::I32, ctx);
  EXPECT_EQ(o.dtype(), DType::I32);
  EXPECT_VALUES(o, 1, 1, 1, 1);
  Tensor s = Tensor::full({}, 7, DType::F32, ctx); // a scalar
  EXPECT_EQ(s.ndim(), 0);
  auto item = s.item();
  ASSERT_TRUE(!!item);
  EXPECT_EQ(*item, 7.0);
  Tensor r = Tensor::arange(5, ctx);
  EXPECT_EQ(r.dtype(), DType::I32);
  EXPECT_TRUE(r.isRealized()); // data, not a graph
  EXPECT_VALUES(r, 0, 1, 2, 3, 4);
  Tensor v = Tensor::fromVector(seq(6), {2, 3}, ctx);
  EXPECT_EQ(v.shape(), (Shape{2, 3}));
  EXPECT_TRUE(v.isRealized());
  EXPECT_VALUES(v, 0, 1, 2, 3, 4, 5);
  EXPECT_VALUES(Tensor::fromBools({true, false}, {2}, ctx), 1, 0);
  EXPECT_EQ(Tensor::fromBools({true, false}, {2}, ctx).dtype(), DType::Bool);
  // f16: a constant f32 cast (as the seed's UOp.const).
  Tensor h = Tensor::full({2}, 1.5, DType::F16, ctx);
  EXPECT_EQ(h.dtype(), DType::F16);
  EXPECT_VALUES(h, 1.5, 1.5);
}

// A borrowed buffer (the Python binding's numpy arrays) is read where it
// is, never written or freed; buffer() shares the value without a copy.
TEST_F(TensorTest, BorrowedDataAndSharedBuffer) {
  alignas(64) float data[6] = {1, 2, 3, 4, 5, 6};
  auto released = std::make_shared<bool>(false);
  {
    std::shared_ptr<void> owner(nullptr, [released](void *) { *released = true; });
    auto b = rt::HostBuffer::borrow(DType::F32, {2, 3}, data, owner);
    ASSERT_TRUE(b.ok()) << b.error();
    EXPECT_TRUE(b->borrowed());
    EXPECT_EQ(b->data(), static_cast<void *>(data));
    Tensor t = Tensor::fromBuffer(std::make_shared<rt::HostBuffer>(b.take()), ctx);
    Tensor y = t * 2;
    EXPECT_VALUES(y, 2, 4, 6, 8, 10, 12);
    EXPECT_VALUES(t, 1, 2, 3, 4, 5, 6); // the input is not written
    auto shared = y.buffer();
    ASSERT_TRUE(!!shared);
    auto again = y.buffer();
    ASSERT_TRUE(!!again);
    EXPECT_EQ((*shared)->data(), (*again)->data()); // the value's buffer, not a copy
    EXPECT_EQ((*shared)->numel(), 6);
    EXPECT_FALSE(*released);
  }
  EXPECT_TRUE(*released); // the owner goes with the last tensor using the data
  EXPECT_FALSE(rt::HostBuffer::borrow(DType::F32, {-1}, data, nullptr).ok());
  EXPECT_FALSE(rt::HostBuffer::borrow(DType::F32, {2}, nullptr, nullptr).ok());
}

TEST_F(TensorTest, RandomIsSeededAndDistributed) {
  ctx.manualSeed(3);
  auto a = values(Tensor::randn({4000}, ctx));
  ctx.manualSeed(3);
  auto b = values(Tensor::randn({4000}, ctx));
  EXPECT_EQ(a, b);
  double mean = 0, sq = 0;
  for (float x : a)
    mean += x, sq += double(x) * x;
  mean /= a.size();
  double var = sq / a.size() - mean * mean;
  EXPECT_NEAR(mean, 0, 0.06);
  EXPECT_NEAR(var, 1, 0.08);
  auto u = values(Tensor::uniform({1000}, 2, 3, ctx));
  for (float x : u) {
    EXPECT_GE(x, 2);
    EXPECT_LT(x, 3);
  }
  Tensor k = Tensor::kaiming({8, 4}, ctx);
  EXPECT_TRUE(k.requiresGrad());
  for (float x : values(k))
    EXPECT_LE(std::fabs(x), 0.5f);
}

//===----------------------------------------------------------------------===//
// Elementwise, broadcasting, promotion
//===----------------------------------------------------------------------===//

TEST_F(TensorTest, BroadcastingArithmetic) {
  Tensor a = Tensor::fromVector(seq(6), {2, 3}, ctx);
  Tensor row = Tensor::fromVector({10, 20, 30}, {3}, ctx);
  Tensor col = Tensor::fromVector({100, 200}, {2, 1}, ctx);
  EXPECT_VALUES(a + row, 10, 21, 32, 13, 24, 35);
  EXPECT_VALUES(row + a, 10, 21, 32, 13, 24, 35);
  EXPECT_VALUES(a * col, 0, 100, 200, 600, 800, 1000);
  EXPECT_VALUES(col - row, 90, 80, 70, 190, 180, 170);
  EXPECT_VALUES(a / 2, 0, 0.5, 1, 1.5, 2, 2.5);
  EXPECT_VALUES(1 - a, 1, 0, -1, -2, -3, -4);
  EXPECT_VALUES(2 * a + 1, 1, 3, 5, 7, 9, 11);
  EXPECT_VALUES(-a, -0.0f, -1, -2, -3, -4, -5);
  // x / y is x * (1 / y), as the seed builds it: near, not always exact.
  expectNear(values(row / col), {0.1f, 0.2f, 0.3f, 0.05f, 0.1f, 0.15f}, 1e-7);
  expectNear(values(12 / row), {1.2f, 0.6f, 0.4f}, 1e-7);
  EXPECT_EQ((a + row).shape(), (Shape{2, 3}));
  EXPECT_EQ((col + row).shape(), (Shape{2, 3}));
  auto s = broadcastShapes({{5, 1, 4}, {3, 1}, {}});
  ASSERT_TRUE(!!s);
  EXPECT_EQ(*s, (Shape{5, 3, 4}));
  auto bad = broadcastShapes({{2, 3}, {4}});
  ASSERT_FALSE(!!bad);
  EXPECT_EQ(llvm::toString(bad.takeError()), "cannot broadcast (2, 3) with (4,)");
}

TEST_F(TensorTest, PythonFloatPromotesIntTensors) {
  // test_python_float_promotes_int_tensors
  Tensor t = Tensor::fromInts({1, 2, 3}, {3}, ctx);
  Tensor h = t * 0.5;
  EXPECT_EQ(h.dtype(), DType::F32);
  EXPECT_VALUES(h, 0.5, 1.0, 1.5);
  auto m = t.mean().item();
  ASSERT_TRUE(!!m);
  EXPECT_EQ(*m, 2.0);
  // An int scalar keeps the int dtype.
  Tensor i = t * 2 + 1;
  EXPECT_EQ(i.dtype(), DType::I32);
  EXPECT_VALUES(i, 3, 5, 7);
  EXPECT_VALUES(t - 0.5, 0.5, 1.5, 2.5); // promoted (the seed would truncate 0.5 to 0)
}

TEST_F(TensorTest, DeletedReadsDoNotShiftKernelArguments) {
  Tensor t = Tensor::fromInts({1, 2, 3}, {3}, ctx);
  EXPECT_VALUES(t * 0, 0, 0, 0);
  EXPECT_VALUES(t, 1, 2, 3);
}

TEST_F(TensorTest, ComparisonsAndWhere) {
  Tensor a = Tensor::fromVector({1, 2, 3, 4}, {4}, ctx);
  Tensor b = Tensor::fromVector({4, 2, 2, 5}, {4}, ctx);
  EXPECT_EQ((a < b).dtype(), DType::Bool);
  EXPECT_VALUES(a < b, 1, 0, 0, 1);
  EXPECT_VALUES(a > b, 0, 0, 1, 0);
  EXPECT_VALUES(a <= b, 1, 1, 0, 1);
  EXPECT_VALUES(a >= b, 0, 1, 1, 0);
  EXPECT_VALUES(a == b, 0, 1, 0, 0);
  EXPECT_VALUES(a != b, 1, 0, 1, 1);
  EXPECT_VALUES(a < 3, 1, 1, 0, 0);
  EXPECT_VALUES(2 < a, 0, 0, 1, 1);
  EXPECT_VALUES(a == 2, 0, 1, 0, 0);
  EXPECT_VALUES(!(a > 2), 1, 1, 0, 0);
  EXPECT_VALUES((a > b).where(a, b * 2), 8, 4, 3, 10);
  EXPECT_VALUES((a > 2).where(1, 0), 0, 0, 1, 1);
  EXPECT_VALUES((a > 2).where(a, 0), 0, 0, 3, 4);
  EXPECT_VALUES(a.maximum(b), 4, 2, 3, 5);
  EXPECT_VALUES(a.minimum(b), 1, 2, 2, 4);
  EXPECT_VALUES(a.maximum(2.5), 2.5, 2.5, 3, 4);
  EXPECT_VALUES(a.minimum(2.5), 1, 2, 2.5, 2.5);
  Tensor c = Tensor::fromVector({-1.5, 2.7, 0, 3}, {4}, ctx).cast(DType::I32);
  EXPECT_EQ(c.dtype(), DType::I32);
  EXPECT_VALUES(c, -1, 2, 0, 3); // C semantics: toward zero
  EXPECT_VALUES((a > 2).cast(DType::F32) + 1, 1, 1, 2, 2);
}

TEST_F(TensorTest, UnaryMath) {
  std::vector<float> x = {-2.0f, -0.5f, 0.25f, 1.0f, 3.0f};
  std::vector<float> p = {0.5f, 1.0f, 2.0f, 4.0f, 9.0f};
  Tensor t = Tensor::fromVector(x, ctx), q = Tensor::fromVector(p, ctx);
  auto map = [](const std::vector<float> &v, double (*f)(double)) {
    std::vector<float> out;
    for (float e : v)
      out.push_back(static_cast<float>(f(e)));
    return out;
  };
  expectNear(values(t.exp()), map(x, std::exp), 1e-6);
  expectNear(values(q.log()), map(p, std::log), 1e-6);
  expectNear(values(t.exp2()), map(x, std::exp2), 1e-6);
  expectNear(values(q.log2()), map(p, std::log2), 1e-6);
  expectNear(values(q.sqrt()), map(p, std::sqrt), 1e-6);
  expectNear(values(q.rsqrt()), map(p, [](double v) { return 1 / std::sqrt(v); }), 1e-6);
  expectNear(values(t.sin()), map(x, std::sin), 1e-6);
  expectNear(values(t.cos()), map(x, std::cos), 1e-6);
  expectNear(values(t.square()), map(x, [](double v) { return v * v; }), 1e-6);
  EXPECT_VALUES(t.abs(), 2.0f, 0.5f, 0.25f, 1.0f, 3.0f);
  EXPECT_VALUES(t.relu(), 0, 0, 0.25f, 1.0f, 3.0f);
  expectNear(values(t.sigmoid()), map(x, [](double v) { return 1 / (1 + std::exp(-v)); }), 1e-6);
  expectNear(values(t.tanh()), map(x, std::tanh), 1e-6);
  expectNear(values(t.silu()), map(x, [](double v) { return v / (1 + std::exp(-v)); }), 1e-6);
  expectNear(values(t.gelu()),
             map(x,
                 [](double v) {
                   return 0.5 * v *
                          (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
                 }),
             1e-6);
  expectNear(values(q.reciprocal()), map(p, [](double v) { return 1 / v; }), 1e-7);
}

//===----------------------------------------------------------------------===//
// Movement
//===----------------------------------------------------------------------===//

TEST_F(TensorTest, Movement) {
  Tensor a = Tensor::fromVector(seq(6), {2, 3}, ctx);
  EXPECT_EQ(a.reshape({3, -1}).shape(), (Shape{3, 2}));
  EXPECT_EQ(a.reshape({-1}).shape(), (Shape{6}));
  EXPECT_TRUE(a.reshape({2, 3}).sameAs(a)); // the identity is the tensor itself
  EXPECT_VALUES(a.T(), 0, 3, 1, 4, 2, 5);
  EXPECT_VALUES(a.permute({1, 0}), 0, 3, 1, 4, 2, 5);
  EXPECT_VALUES(a.transpose(0, 1), 0, 3, 1, 4, 2, 5);
  EXPECT_EQ(a.unsqueeze(0).shape(), (Shape{1, 2, 3}));
  EXPECT_EQ(a.unsqueeze(-1).shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(a.unsqueeze(1).squeeze(1).shape(), (Shape{2, 3}));
  EXPECT_EQ(a.reshape({1, 2, 3}).flatten(1).shape(), (Shape{1, 6}));
  EXPECT_EQ(a.flatten().shape(), (Shape{6}));
  Tensor col = Tensor::fromVector({1, 2}, {2, 1}, ctx);
  EXPECT_VALUES(col.expand({-1, 3}), 1, 1, 1, 2, 2, 2);
  EXPECT_VALUES(col.expand({2, 2, 3}), 1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2);
  EXPECT_VALUES(a.shrink({{0, 2}, {1, 3}}), 1, 2, 4, 5);
  EXPECT_VALUES(a.slice(1, 1, 100), 1, 2, 4, 5);
  EXPECT_VALUES(a.slice(1, -1, 3), 2, 5);
  EXPECT_VALUES(a.select(0, -1), 3, 4, 5);
  EXPECT_EQ(a.select(1, 0).shape(), (Shape{2}));
  EXPECT_VALUES(a.pad({{1, 0}, {0, 2}}), 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 5, 0, 0);
  EXPECT_VALUES(a.flip(1), 2, 1, 0, 5, 4, 3);
  EXPECT_VALUES(a.flip(0), 3, 4, 5, 0, 1, 2);
  Tensor b = Tensor::fromVector({10, 11}, {2, 1}, ctx);
  Tensor c = Tensor::cat({a, b}, 1);
  EXPECT_EQ(c.shape(), (Shape{2, 4}));
  EXPECT_VALUES(c, 0, 1, 2, 10, 3, 4, 5, 11);
  EXPECT_VALUES(Tensor::cat({a, a}, 0), 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5);
  Tensor s = Tensor::stack({a, a * 10}, 0);
  EXPECT_EQ(s.shape(), (Shape{2, 2, 3}));
  EXPECT_VALUES(s, 0, 1, 2, 3, 4, 5, 0, 10, 20, 30, 40, 50);
  Tensor s2 = Tensor::stack({a, a * 10}, -1);
  EXPECT_EQ(s2.shape(), (Shape{2, 3, 2}));
  EXPECT_VALUES(s2, 0, 0, 1, 10, 2, 20, 3, 30, 4, 40, 5, 50);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

TEST_F(TensorTest, ReductionsWithAxisAndKeepdim) {
  Tensor a = Tensor::fromVector(seq(24), {2, 3, 4}, ctx);
  auto total = a.sum().item();
  ASSERT_TRUE(!!total);
  EXPECT_EQ(*total, 276);
  EXPECT_EQ(a.sum().shape(), Shape{});
  // sum over (0, 2): s[j] = sum_{i,k} (12 i + 4 j + k)
  EXPECT_VALUES(a.sum({0, 2}), 60, 92, 124);
  EXPECT_EQ(a.sum({0, 2}, true).shape(), (Shape{1, 3, 1}));
  EXPECT_VALUES(a.sum(-1), 6, 22, 38, 54, 70, 86);
  EXPECT_VALUES(a.max(1), 8, 9, 10, 11, 20, 21, 22, 23);
  EXPECT_EQ(a.max(1, true).shape(), (Shape{2, 1, 4}));
  EXPECT_VALUES(a.min(1), 0, 1, 2, 3, 12, 13, 14, 15);
  EXPECT_VALUES(a.mean(-1), 1.5, 5.5, 9.5, 13.5, 17.5, 21.5);
  EXPECT_VALUES(a.mean({0, 1}), 10, 11, 12, 13);
  // The population variance (the seed's), and Bessel's (PyTorch's default).
  EXPECT_VALUES(a.var(-1, false, 0), 1.25, 1.25, 1.25, 1.25, 1.25, 1.25);
  expectNear(values(a.var(-1)), std::vector<float>(6, 5.0f / 3), 1e-6);
  auto m = a.max().item();
  ASSERT_TRUE(!!m);
  EXPECT_EQ(*m, 23);
  Tensor t = Tensor::fromVector({1, 5, 5, 2, 7, 0}, {2, 3}, ctx);
  Tensor am = t.argmax(-1);
  EXPECT_EQ(am.dtype(), DType::I32);
  EXPECT_VALUES(am, 1, 1); // the first maximum
  EXPECT_VALUES(t.argmax(0), 1, 1, 0);
}

TEST_F(TensorTest, SoftmaxLogSoftmaxLogsumexp) {
  std::vector<float> x(32);
  for (int i = 0; i < 32; ++i)
    x[i] = std::sin(0.7f * i) * 3;
  Tensor t = Tensor::fromVector(x, {4, 8}, ctx);
  auto sm = values(t.softmax(-1)), ls = values(t.logSoftmax(-1)), lse = values(t.logsumexp(-1));
  ASSERT_EQ(lse.size(), 4u);
  EXPECT_EQ(t.logsumexp(-1).shape(), (Shape{4}));
  EXPECT_EQ(t.logsumexp(-1, true).shape(), (Shape{4, 1}));
  for (int r = 0; r < 4; ++r) {
    double mx = -INFINITY, sum = 0;
    for (int c = 0; c < 8; ++c)
      mx = std::max<double>(mx, x[r * 8 + c]);
    for (int c = 0; c < 8; ++c)
      sum += std::exp(x[r * 8 + c] - mx);
    for (int c = 0; c < 8; ++c) {
      EXPECT_NEAR(sm[r * 8 + c], std::exp(x[r * 8 + c] - mx) / sum, 1e-6);
      EXPECT_NEAR(ls[r * 8 + c], x[r * 8 + c] - mx - std::log(sum), 1e-5);
    }
    EXPECT_NEAR(lse[r], mx + std::log(sum), 1e-5);
  }
  // softmax over axis 0 sums to 1 per column
  auto s0 = values(t.softmax(0).sum(0));
  for (float v : s0)
    EXPECT_NEAR(v, 1, 1e-6);
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

TEST_F(TensorTest, Matmul) {
  Tensor a = Tensor::fromVector(seq(6), {2, 3}, ctx);
  Tensor b = Tensor::fromVector(seq(12), {3, 4}, ctx);
  Tensor c = a.matmul(b);
  EXPECT_EQ(c.shape(), (Shape{2, 4}));
  EXPECT_VALUES(c, 20, 23, 26, 29, 56, 68, 80, 92);
  Tensor v = Tensor::fromVector({1, 0, -1}, {3}, ctx);
  EXPECT_VALUES(a.matmul(v), -2, -2);         // (2,3) @ (3,)
  EXPECT_VALUES(v.matmul(b), -8, -8, -8, -8); // (3,) @ (3,4)
  EXPECT_EQ(v.matmul(v).shape(), Shape{});
  EXPECT_VALUES(v.matmul(v), 2);
  // batched: (2, 2, 3) @ (2, 3, 2), each batch by hand
  Tensor x = Tensor::fromVector(seq(12), {2, 2, 3}, ctx);
  Tensor w = Tensor::fromVector(seq(12, 1), {2, 3, 2}, ctx);
  std::vector<float> want;
  for (int n = 0; n < 2; ++n)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        float s = 0;
        for (int k = 0; k < 3; ++k)
          s += (n * 6 + i * 3 + k) * (1 + n * 6 + k * 2 + j);
        want.push_back(s);
      }
  EXPECT_EQ(values(x.matmul(w)), want);
  // broadcast batch: (2, 2, 3) @ (3, 2)
  EXPECT_EQ(x.matmul(w.select(0, 0)).shape(), (Shape{2, 2, 2}));
  // linear with a bias
  EXPECT_VALUES(a.linear(b, Tensor::fromVector({1, 1, 1, 1}, {4}, ctx)), 21, 24, 27, 30, 57, 69, 81,
                93);
}

TEST_F(TensorTest, CrossEntropyAndOneHot) {
  Tensor logits = Tensor::fromVector({2, 0, 0, 0, 3, 1}, {2, 3}, ctx);
  Tensor labels = Tensor::fromInts({0, 2}, {2}, ctx);
  EXPECT_VALUES(labels.oneHot(3), 1, 0, 0, 0, 0, 1);
  auto ce = logits.crossEntropy(labels).item();
  ASSERT_TRUE(!!ce);
  double l0 = -(2 - std::log(std::exp(2) + 2)), l1 = -(1 - std::log(1 + std::exp(3) + std::exp(1)));
  EXPECT_NEAR(*ce, (l0 + l1) / 2, 1e-5);
}

//===----------------------------------------------------------------------===//
// Realization: the plan cache, aliases, lifetimes
//===----------------------------------------------------------------------===//

TEST_F(TensorTest, HundredStepsOfOneStructureCompileOnce) {
  Tensor w = Tensor::fromVector(seq(16, -1, 0.125f), {4, 4}, ctx);
  for (int step = 0; step < 100; ++step) {
    Tensor x = Tensor::randn({8, 4}, ctx); // new data every step
    Tensor loss = (x.matmul(w).relu() * 2 + 1).softmax(-1).square().mean();
    auto l = loss.item();
    ASSERT_TRUE(!!l) << llvm::toString(l.takeError());
    // and a functional parameter update, realized each step
    ASSERT_FALSE(!!w.assign(w - w * 0.01));
    ASSERT_TRUE(!!w.realize());
  }
  const auto &stats = ctx.planCache().stats();
  EXPECT_EQ(stats.compiled, 2u); // the loss and the update: once each
  // The other 198 found their plan by structure: in the frontend's own map
  // (no program built), or else in the plan cache's memory.
  EXPECT_EQ(ctx.planHits(), 198u);
  EXPECT_EQ(stats.memoryHits, 0u);
  EXPECT_EQ(ctx.realizations(), 200u);
  // Buffers that no tensor reaches are freed: w's, and the last x and loss.
  EXPECT_LE(ctx.liveBuffers(), 6u);
  // w = w0 * 0.99^100
  auto wv = values(w);
  EXPECT_NEAR(wv[15], (-1 + 15 * 0.125) * std::pow(0.99, 100), 1e-5);
}

TEST_F(TensorTest, ProgramsAreNumberedByStructure) {
  Tensor a = Tensor::fromVector(seq(4), {4}, ctx), b = Tensor::fromVector(seq(4, 1), {4}, ctx);
  Tensor c = Tensor::fromVector(seq(4), {4}, ctx), d = Tensor::fromVector(seq(4, 1), {4}, ctx);
  auto p1 = ctx.programText({a * b + a});
  auto p2 = ctx.programText({c * d + c});
  ASSERT_TRUE(p1 && p2);
  EXPECT_EQ(*p1, *p2); // other buffers, same text
  EXPECT_NE(p1->find("uop.buffer 1 : tensor<4xf32>"), std::string::npos) << *p1;
  EXPECT_EQ(p1->find("uop.buffer 2"), std::string::npos) << *p1;
  auto p3 = ctx.programText({b * a + a}); // operands swapped: another structure
  ASSERT_TRUE(!!p3);
  EXPECT_NE(*p1, *p3);
  // Hash consing: building the same expression again adds no op.
  Tensor e1 = a * b + 1;
  size_t n = ctx.graphSize();
  Tensor e2 = a * b + 1;
  EXPECT_EQ(ctx.graphSize(), n);
  EXPECT_EQ(e1.value(), e2.value());
}

TEST_F(TensorTest, KernelizeFusesElementwiseAndSplitsReductions) {
  // test_kernelize_fuses_elementwise_and_splits_reductions
  Tensor a = Tensor::randn({64, 64}, ctx);
  auto chain = ctx.compile({((a * 2 + 1).relu() * 3)});
  ASSERT_TRUE(!!chain) << llvm::toString(chain.takeError());
  EXPECT_EQ((*chain)->plan().numLaunches, 1u); // a chain of elementwise ops: one kernel
  auto sm = ctx.compile({a.softmax(-1)});
  ASSERT_TRUE(!!sm) << llvm::toString(sm.takeError());
  EXPECT_EQ((*sm)->plan().numLaunches, 3u); // max, sum, and the elementwise output
  EXPECT_EQ(ctx.realizations(), 0u);        // compiled, not run
}

TEST_F(TensorTest, RealizeRebindsAndKeepsTheGraph) {
  Tensor w = Tensor::fromVector({1, 2}, {2}, ctx);
  Tensor loss = (w * w).sum();
  Tensor alias = loss; // a copy of the handle is the same tensor
  EXPECT_FALSE(loss.isRealized());
  mlir::Value graph = loss.value();
  auto l = loss.item();
  ASSERT_TRUE(!!l);
  EXPECT_EQ(*l, 5);
  EXPECT_TRUE(loss.isRealized());
  EXPECT_TRUE(alias.isRealized());
  EXPECT_EQ(loss.graphValue(), graph); // the seed's _graph, for backward
  EXPECT_NE(loss.value(), graph);
  // Realizing again runs nothing.
  size_t n = ctx.realizations();
  ASSERT_TRUE(!!loss.realize());
  EXPECT_EQ(ctx.realizations(), n);
  // Several tensors in one program, one of them twice.
  Tensor p = w + 1, q = w * 3;
  ASSERT_FALSE(!!Tensor::realizeAll({p, q, p}));
  EXPECT_EQ(ctx.realizations(), n + 1);
  EXPECT_VALUES(p, 2, 3);
  EXPECT_VALUES(q, 3, 6);
}

TEST_F(TensorTest, AliasedAndViewOutputs) {
  Tensor x = Tensor::fromVector(seq(6), {2, 3}, ctx);
  // A reshape of a whole buffer is already data: nothing compiles.
  Tensor flat = x.reshape({-1});
  EXPECT_TRUE(flat.isRealized());
  EXPECT_VALUES(flat, 0, 1, 2, 3, 4, 5);
  EXPECT_EQ(ctx.realizations(), 0u);
  // detach is the input itself after kernelize: the plan's value aliases it.
  Tensor d = x.detach();
  EXPECT_VALUES(d, 0, 1, 2, 3, 4, 5);
  auto buf = d.numpy();
  ASSERT_TRUE(!!buf);
  EXPECT_EQ(buf->shape(), (Shape{2, 3}));
  // an alias and a computed value in one program
  Tensor c = x.contiguous(), y = x.sum(1);
  ASSERT_FALSE(!!Tensor::realizeAll({x.detach().reshape({3, 2}), y}));
  EXPECT_VALUES(y, 3, 12);
  EXPECT_VALUES(c, 0, 1, 2, 3, 4, 5);
  // the input is untouched
  EXPECT_VALUES(x, 0, 1, 2, 3, 4, 5);
}

TEST_F(TensorTest, BuffersAreFreedWithTheirTensors) {
  size_t base = ctx.liveBuffers();
  {
    Tensor a = Tensor::randn({64}, ctx);
    Tensor b = a * 2; // keeps a's data alive through its graph
    a = Tensor::zeros({1}, DType::F32, ctx);
    EXPECT_EQ(ctx.liveBuffers(), base + 1);
    ASSERT_TRUE(!!b.realize());
    EXPECT_EQ(ctx.liveBuffers(), base + 2); // b's data, and its graph's input (kept for autodiff)
  }
  EXPECT_EQ(ctx.liveBuffers(), base);
}

TEST_F(TensorTest, NpyRoundTrip) {
  Tensor a = Tensor::fromVector(seq(6, 0.5f), {3, 2}, ctx) * 2;
  std::string path = dir.file("a.npy");
  ASSERT_FALSE(!!a.save(path));
  Tensor b = Tensor::load(path, ctx);
  ASSERT_TRUE(b.ok()) << b.error();
  EXPECT_EQ(b.shape(), (Shape{3, 2}));
  EXPECT_VALUES(b, 1, 3, 5, 7, 9, 11);
  auto missing = Tensor::load(dir.file("nope.npy"), ctx);
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("nope.npy"), std::string::npos) << missing.error();
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST_F(TensorTest, MisuseIsAnErrorNotAnAbort) {
  Tensor a = Tensor::fromVector(seq(6), {2, 3}, ctx);
  Tensor b = Tensor::fromVector(seq(4), {4}, ctx);
  Tensor i = Tensor::fromInts({1, 2, 3}, {3}, ctx);
  auto errorOf = [](const Tensor &t) { return t.ok() ? std::string("(ok)") : t.error(); };
  EXPECT_EQ(errorOf(a + b), "add: cannot broadcast (2, 3) with (4,)");
  EXPECT_EQ(errorOf(a.sum(2)), "sum: axis 2 is out of range for shape (2, 3)");
  EXPECT_EQ(errorOf(a.sum({1, -1})), "sum: axis -1 given twice");
  EXPECT_EQ(errorOf(a.softmax(5)), "max: axis 5 is out of range for shape (2, 3)");
  EXPECT_EQ(errorOf(a & i), "bitwiseAnd: needs integer or bool tensors, got f32 and i32");
  EXPECT_EQ(errorOf(a.div(a, "round")),
            "div: rounding mode \"round\" is not one of \"trunc\", \"floor\"");
  EXPECT_EQ(errorOf(a.pad({{0, 0}, {1, 1}}, "wrap")),
            "pad: mode \"wrap\" is not one of \"constant\", \"reflect\", \"replicate\", "
            "\"circular\"");
  // Integers promote (as tinygrad's and PyTorch's), they do not fail.
  EXPECT_EQ((i + Tensor::fromVector({1, 2, 3}, {3}, ctx)).dtype(), DType::F32);
  EXPECT_EQ(i.sqrt().dtype(), DType::F32);
  EXPECT_EQ(errorOf(a.where(a, a)), "where: the condition must be bool, got f32");
  EXPECT_EQ(errorOf(a.reshape({4, -1})), "cannot reshape (2, 3) to (4, -1)");
  EXPECT_EQ(errorOf(a.reshape({-1, -1})), "reshape: more than one -1 in (-1, -1)");
  EXPECT_EQ(errorOf(a.reshape({5})), "cannot reshape (2, 3) to (5,): element counts 6 vs 5");
  EXPECT_EQ(errorOf(a.permute({0, 0})),
            "permute: (0, 0) is not a permutation of the 2 axes of (2, 3)");
  EXPECT_EQ(errorOf(a.expand({4, 3})), "cannot broadcast (2, 3) to (4, 3)");
  EXPECT_EQ(errorOf(a.shrink({{0, 3}, {0, 3}})),
            "shrink: bounds [0:3, 0:3] do not fit shape (2, 3)");
  EXPECT_EQ(errorOf(a.matmul(a)), "matmul: (2, 3) @ (2, 3): inner dimensions 3 and 2 differ");
  EXPECT_EQ(errorOf(b.transpose()), "transpose: axis -2 is out of range for shape (4,)");
  EXPECT_EQ(errorOf(Tensor::cat({a, b})),
            "cat: <Tensor (4,) f32> does not fit <Tensor (2, 3) f32> along axis 0");
  EXPECT_EQ(errorOf(Tensor::fromVector({1, 2, 3}, {2, 2}, ctx)),
            "fromVector: 3 values do not fit shape (2, 2)");
  EXPECT_EQ(errorOf(Tensor()), "uninitialized tensor");
  // The first error flows through the rest of the expression...
  Tensor bad = ((a + b) * 2).exp().sum(0);
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "add: cannot broadcast (2, 3) with (4,)");
  EXPECT_EQ(bad.shape(), Shape{});
  // ...and surfaces where a value is asked for.
  EXPECT_EQ(realizeError(bad), "add: cannot broadcast (2, 3) with (4,)");
  auto v = bad.numpy();
  ASSERT_FALSE(!!v);
  EXPECT_EQ(llvm::toString(v.takeError()), "add: cannot broadcast (2, 3) with (4,)");
  auto it = a.item();
  ASSERT_FALSE(!!it);
  EXPECT_EQ(llvm::toString(it.takeError()),
            "item: the tensor has 6 elements, not 1 (shape (2, 3))");
  llvm::Error e = Tensor::realizeAll({a * 2, bad});
  ASSERT_TRUE(!!e);
  EXPECT_EQ(llvm::toString(std::move(e)), "add: cannot broadcast (2, 3) with (4,)");
  llvm::Error as = a.assign(b);
  ASSERT_TRUE(!!as);
  EXPECT_EQ(llvm::toString(std::move(as)), "assign: <Tensor (4,) f32> to <Tensor (2, 3) f32>");
  // Tensors of two contexts do not mix.
  TensorContext other;
  Tensor o = Tensor::fromVector(seq(6), {2, 3}, other);
  EXPECT_EQ(errorOf(a + o), "tensors of different contexts in one operation");
  // Nothing above was appended to the graph as an invalid op, and the good
  // tensors still realize.
  EXPECT_VALUES(a.sum(1), 3, 12);
}

TEST_F(TensorTest, ScalarsEmptyShapesAndOtherDtypes) {
  Tensor s = Tensor::full({}, 3, DType::F32, ctx);
  auto v = s.sum().item(); // a reduction of no axes
  ASSERT_TRUE(!!v) << llvm::toString(v.takeError());
  EXPECT_EQ(*v, 3);
  Tensor a = Tensor::fromVector(seq(6), {2, 3}, ctx);
  EXPECT_EQ(a.slice(1, 2, 1).shape(), (Shape{2, 0})); // an empty value, no program
  EXPECT_EQ(realizeError(a.slice(1, 2, 1)), "");
  auto empty = a.slice(1, 2, 1).numpy();
  ASSERT_TRUE(!!empty);
  EXPECT_EQ(empty->shape(), (Shape{2, 0}));
  Tensor bm = (a > 2).max(1); // bool max: any
  EXPECT_EQ(bm.dtype(), DType::Bool);
  EXPECT_VALUES(bm, 0, 1);
  Tensor h = a.cast(DType::F16) * 2;
  EXPECT_EQ(h.dtype(), DType::F16);
  EXPECT_VALUES(h, 0, 2, 4, 6, 8, 10);
  EXPECT_VALUES(Tensor::fromVector(seq(4), {1, 4}, ctx).flip(0), 0, 1, 2, 3);
}

// f16 @ f16: each product in f32 (exact) and summed in f32, an f32 result
// (the seed's WMMA contract, what tensor cores compute); linear casts back.
TEST_F(TensorTest, MatmulF16SumsInF32) {
  // 1 + 2^-10 is an f16; its square 1 + 2^-9 + 2^-20 is not (f16 would
  // round it to 1 + 2^-9), but is an f32.
  float x = 1.0f + 1.0f / 1024;
  Tensor a = Tensor::fromVector({x, x}, {1, 2}, ctx).cast(DType::F16);
  Tensor b = Tensor::fromVector({x, x}, {2, 1}, ctx).cast(DType::F16);
  Tensor c = a.matmul(b);
  EXPECT_EQ(c.dtype(), DType::F32);
  EXPECT_EQ(values(c), std::vector<float>{2 * x * x});
  Tensor l = a.linear(b);
  EXPECT_EQ(l.dtype(), DType::F16);
  EXPECT_EQ(values(l.cast(DType::F32)), std::vector<float>{2.0f + 1.0f / 256}); // rounded once
}

TEST_F(TensorTest, TheGlobalContextIsTheDefault) {
  Tensor a = Tensor::ones({2}) + Tensor::arange(2).toFloat();
  EXPECT_EQ(a.context(), &TensorContext::global());
  EXPECT_VALUES(a, 1, 2);
}

//===----------------------------------------------------------------------===//
// test_ops: against numpy and against the seed itself
//===----------------------------------------------------------------------===//

const char *kOpsScript = R"py(
import sys, numpy as np
d, seed = sys.argv[1], sys.argv[2]
a = np.load(d + '/a.npy'); b = np.load(d + '/b.npy')
refs = {
 'add_broadcast': lambda a, b: a + b[0],
 'mul_sub_div': lambda a, b: (a * b - 3) / (np.abs(b) + 1),
 'exp_log': lambda a, b: np.log(np.exp(a) + 1),
 'sum_axes': lambda a, b: a.sum((0, 2)),
 'max_keepdim': lambda a, b: a.max(1, keepdims=True),
 'mean_var': lambda a, b: a.var(-1),
 'softmax': lambda a, b: np.exp(a - a.max(-1, keepdims=True)) / np.exp(a - a.max(-1, keepdims=True)).sum(-1, keepdims=True),
 'matmul_batched': lambda a, b: a @ b.transpose(0, 2, 1),
 'where': lambda a, b: np.where(a > b, a, b * 2),
 'getitem_cat': lambda a, b: np.concatenate([a[:, 1:], b[:, :1]], 1),
 'pad_flip': lambda a, b: np.pad(a, ((0, 0), (1, 2), (0, 1)))[:, ::-1],
}
for k, f in refs.items(): np.save(d + '/np_' + k + '.npy', np.asarray(f(a, b), np.float32))
if seed != '-':
    sys.path.insert(0, seed)
    from uopc.tensor import Tensor
    fns = {
     'add_broadcast': lambda a, b: a + b[0],
     'mul_sub_div': lambda a, b: (a * b - 3) / (b.abs() + 1),
     'exp_log': lambda a, b: (a.exp() + 1).log(),
     'sum_axes': lambda a, b: a.sum((0, 2)),
     'max_keepdim': lambda a, b: a.max(1, keepdim=True),
     'mean_var': lambda a, b: a.var(-1),
     'softmax': lambda a, b: a.softmax(-1),
     'matmul_batched': lambda a, b: a @ b.transpose(),
     'where': lambda a, b: (a > b).where(a, b * 2),
     'getitem_cat': lambda a, b: Tensor.cat([a[:, 1:], b[:, :1]], 1),
     'pad_flip': lambda a, b: a.pad(((0, 0), (1, 2), (0, 1))).flip(1),
    }
    for k, f in fns.items(): np.save(d + '/seed_' + k + '.npy', f(Tensor(a), Tensor(b)).numpy())
)py";

TEST_F(TensorTest, OpsMatchNumpyAndTheSeed) {
  if (!rt::test::haveNumpy())
    GTEST_SKIP() << "no numpy";
  ctx.manualSeed(0);
  Tensor a = Tensor::randn({2, 3, 4}, ctx), b = Tensor::randn({2, 3, 4}, ctx);
  ASSERT_FALSE(!!a.save(dir.file("a.npy")));
  ASSERT_FALSE(!!b.save(dir.file("b.npy")));
  bool haveSeed = !test::seedRoot().empty();
  ASSERT_TRUE(runScript(kOpsScript));
  struct Case {
    const char *name;
    Tensor value;
  };
  std::vector<Case> cases = {
      {"add_broadcast", a + b.select(0, 0)},
      {"mul_sub_div", (a * b - 3) / (b.abs() + 1)},
      {"exp_log", (a.exp() + 1).log()},
      {"sum_axes", a.sum({0, 2})},
      {"max_keepdim", a.max(1, true)},
      {"mean_var", a.var(-1, false, 0)},
      {"softmax", a.softmax(-1)},
      {"matmul_batched", a.matmul(b.transpose())},
      {"where", (a > b).where(a, b * 2)},
      {"getitem_cat", Tensor::cat({a.slice(1, 1, 3), b.slice(1, 0, 1)}, 1)},
      {"pad_flip", a.pad({{0, 0}, {1, 2}, {0, 1}}).flip(1)},
  };
  // Bit for bit where the seed is exact: movement, add, compare/select,
  // max. (mul_sub_div differs in the last bit: the seed's C compiler
  // contracts a * b + c into an fma, uop's code does not.)
  std::vector<std::string> exact = {"add_broadcast", "where", "getitem_cat", "pad_flip",
                                    "max_keepdim"};
  for (Case &c : cases) {
    SCOPED_TRACE(c.name);
    auto got = c.value.numpy();
    ASSERT_TRUE(!!got) << llvm::toString(got.takeError());
    auto ref = rt::readNpy(dir.file(std::string("np_") + c.name + ".npy"));
    ASSERT_TRUE(ref.ok()) << ref.error();
    ASSERT_EQ(got->shape(), ref->shape());
    for (int64_t i = 0; i < ref->numel(); ++i) {
      double g = got->getDouble(i), r = ref->getDouble(i);
      EXPECT_LE(std::fabs(g - r), 1e-5 + 1e-4 * std::fabs(r)) << "at " << i;
    }
    if (!haveSeed)
      continue;
    auto s = rt::readNpy(dir.file(std::string("seed_") + c.name + ".npy"));
    ASSERT_TRUE(s.ok()) << s.error();
    ASSERT_EQ(got->shape(), s->shape());
    bool mustBeExact = llvm::is_contained(exact, c.name);
    for (int64_t i = 0; i < s->numel(); ++i) {
      double g = got->getDouble(i), r = s->getDouble(i);
      if (mustBeExact)
        EXPECT_EQ(g, r) << "at " << i;
      else
        EXPECT_LE(std::fabs(g - r), 1e-6 + 1e-5 * std::fabs(r)) << "at " << i;
    }
  }
}

} // namespace
