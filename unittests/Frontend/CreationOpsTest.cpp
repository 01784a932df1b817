//===- CreationOpsTest.cpp - creating tensors --------------------*- C++ -*-===//
//
// The creation family: arange with int and float steps, up and down (and
// empty ranges), linspace, eye, full/zeros/ones/empty and their *Like
// forms, rand, randint, randn and their *Like forms, against numpy's and
// PyTorch's values computed here.
//
//===----------------------------------------------------------------------===//

#include "OpsTestUtil.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace uop;

namespace {

class CreationOpsTest : public test::OpsTest {};

#define EXPECT_INTS(t, ...) EXPECT_EQ(ints(t), (std::vector<int64_t>{__VA_ARGS__}))
#define EXPECT_VALUES(t, ...) EXPECT_EQ(values(t), (std::vector<float>{__VA_ARGS__}))

TEST_F(CreationOpsTest, Arange) {
  EXPECT_INTS(Tensor::arange(5, ctx), 0, 1, 2, 3, 4);
  EXPECT_INTS(Tensor::arange(5, 10, 1, std::nullopt, ctx), 5, 6, 7, 8, 9);
  EXPECT_INTS(Tensor::arange(5, 10, 2, std::nullopt, ctx), 5, 7, 9);
  EXPECT_INTS(Tensor::arange(10, 5, -2, std::nullopt, ctx), 10, 8, 6);
  EXPECT_EQ(Tensor::arange(5, 10, 2, std::nullopt, ctx).dtype(), DType::I32);
  // A float anywhere makes it f32; values start + i * step in double.
  Tensor f = Tensor::arange(5.5, 10, 2, std::nullopt, ctx);
  EXPECT_EQ(f.dtype(), DType::F32);
  EXPECT_VALUES(f, 5.5, 7.5, 9.5);
  EXPECT_VALUES(Tensor::arange(0, 1, 0.25, std::nullopt, ctx), 0, 0.25, 0.5, 0.75);
  EXPECT_VALUES(Tensor::arange(-1.0, -2.0, -0.5, std::nullopt, ctx), -1, -1.5);
  std::vector<float> tenth = values(Tensor::arange(0, 1, 0.1, std::nullopt, ctx));
  ASSERT_EQ(tenth.size(), 10u); // ceil(1 / 0.1) as numpy's
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(tenth[i], static_cast<float>(i * 0.1));
  EXPECT_EQ(Tensor::arange(3, 0, 1, std::nullopt, ctx).shape(), Shape{0});
  EXPECT_EQ(Tensor::arange(0, 3, 1, DType::F32, ctx).dtype(), DType::F32);
  EXPECT_EQ(Tensor::arange(0, 3.5, 1, DType::I32, ctx).dtype(), DType::I32);
  EXPECT_INTS(Tensor::arange(0, 3.5, 1, DType::I32, ctx), 0, 1, 2, 3);
  EXPECT_EQ(errorOf(Tensor::arange(0, 3, 0, std::nullopt, ctx)), "arange: the step must not be zero");
  EXPECT_EQ(errorOf(Tensor::arange(-3, ctx)), "arange: n must not be negative, got -3");
}

TEST_F(CreationOpsTest, LinspaceEyeAndFulls) {
  EXPECT_VALUES(Tensor::linspace(0, 10, 5, DType::F32, ctx), 0, 2.5, 5, 7.5, 10);
  EXPECT_VALUES(Tensor::linspace(-1, 1, 5, DType::F32, ctx), -1, -0.5, 0, 0.5, 1);
  EXPECT_VALUES(Tensor::linspace(3, 7, 1, DType::F32, ctx), 3);
  std::vector<float> l = values(Tensor::linspace(0, 1, 7, DType::F32, ctx));
  EXPECT_EQ(l.front(), 0.0f);
  EXPECT_EQ(l.back(), 1.0f); // both ends exact
  EXPECT_INTS(Tensor::linspace(0, 10, 4, DType::I32, ctx), 0, 3, 6, 10);
  EXPECT_EQ(errorOf(Tensor::linspace(0, 1, -1, DType::F32, ctx)),
            "linspace: the number of steps must not be negative, got -1");
  EXPECT_EQ(errorOf(Tensor::linspace(0, 1, 3, DType::Bool, ctx)),
            "linspace: a bool dtype is not supported");
  Tensor e = Tensor::eye(2, 4, DType::F32, ctx);
  EXPECT_EQ(e.shape(), (Shape{2, 4}));
  EXPECT_VALUES(e, 1, 0, 0, 0, 0, 1, 0, 0);
  EXPECT_VALUES(Tensor::eye(3, std::nullopt, DType::F32, ctx), 1, 0, 0, 0, 1, 0, 0, 0, 1);
  EXPECT_EQ(Tensor::eye(2, std::nullopt, DType::I32, ctx).dtype(), DType::I32);
  EXPECT_EQ(errorOf(Tensor::eye(-1, std::nullopt, DType::F32, ctx)), "eye: negative size -1 x -1");
  Tensor i = Tensor::fromInts({1, 2, 3, 4, 5, 6}, {2, 3}, ctx);
  EXPECT_EQ(i.fullLike(4).dtype(), DType::I32);
  EXPECT_INTS(i.fullLike(4), 4, 4, 4, 4, 4, 4);
  EXPECT_EQ(i.fullLike(2.5, DType::F32).dtype(), DType::F32);
  EXPECT_EQ(i.zerosLike().shape(), (Shape{2, 3}));
  EXPECT_INTS(i.onesLike(), 1, 1, 1, 1, 1, 1);
  EXPECT_EQ(i.emptyLike(DType::F16).dtype(), DType::F16);
  EXPECT_VALUES(Tensor::empty({2}, DType::F32, ctx) * 0, 0, 0);
  EXPECT_EQ(errorOf(Tensor::full({2, -3}, 4, DType::F32, ctx)),
            "full: negative dimension in shape (2, -3)");
  EXPECT_EQ(errorOf(Tensor::randn({-3, 2}, ctx)), "randn: negative dimension in shape (-3, 2)");
}

TEST_F(CreationOpsTest, RandomFamily) {
  ctx.manualSeed(7);
  std::vector<float> r = values(Tensor::rand({2000}, ctx));
  double mean = 0;
  for (float v : r) {
    EXPECT_GE(v, 0.0f);
    EXPECT_LT(v, 1.0f);
    mean += v;
  }
  EXPECT_NEAR(mean / r.size(), 0.5, 0.03);
  Tensor ri = Tensor::randint({1000}, -3, 4, ctx);
  EXPECT_EQ(ri.dtype(), DType::I32);
  std::vector<int64_t> seen(7, 0);
  for (int64_t v : ints(ri)) {
    ASSERT_GE(v, -3);
    ASSERT_LT(v, 4);
    ++seen[v + 3];
  }
  for (int64_t s : seen)
    EXPECT_GT(s, 80); // every value drawn, about 1000/7 times each
  Tensor x = Tensor::zeros({3, 4}, DType::F32, ctx);
  EXPECT_EQ(x.randLike().shape(), (Shape{3, 4}));
  EXPECT_EQ(x.randnLike().dtype(), DType::F32);
  EXPECT_EQ(errorOf(Tensor::randint({2}, 3, 3, ctx)), "randint: low 3 must be below high 3");
}

} // namespace
