//===- AutodiffTest.cpp - Tensor::backward ------------------------*- C++ -*-===//
//
// The gradient parts of the seed's tests/test_w05_tensor.py.
//
//===----------------------------------------------------------------------===//

#include "Uop/Frontend/Tensor.h"

#include "../Runtime/TestUtil.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace uop;

namespace {

class AutodiffTest : public ::testing::Test {
protected:
  AutodiffTest() : env("UOP_CACHE", dir.path().c_str()) {}

  std::vector<float> values(const Tensor &t) {
    auto v = t.toVector();
    if (!v) {
      ADD_FAILURE() << llvm::toString(v.takeError());
      return {};
    }
    return *v;
  }
  std::vector<float> gradOf(const Tensor &p) {
    std::optional<Tensor> g = p.grad();
    if (!g) {
      ADD_FAILURE() << "no grad";
      return {};
    }
    return values(*g);
  }

  rt::test::TempDir dir;
  rt::test::ScopedEnv env;
  TensorContext ctx;
};

// test_item_before_backward_and_detach
TEST_F(AutodiffTest, ItemBeforeBackwardAndDetach) {
  Tensor w = Tensor::fromVector({1.0f, 2.0f}, ctx).setRequiresGrad();
  Tensor loss = (w * w).sum();
  auto item = loss.item(); // realizing the loss must keep its graph
  ASSERT_TRUE(!!item) << llvm::toString(item.takeError());
  EXPECT_EQ(*item, 5.0);
  ASSERT_FALSE(!!loss.backward({w}));
  EXPECT_EQ(gradOf(w), (std::vector<float>{2.0f, 4.0f}));
  w.setGrad(std::nullopt);
  EXPECT_FALSE(w.grad().has_value());
  // d/dw (c * w) with c = w held constant
  ASSERT_FALSE(!!(w.detach() * w).sum().backward({w}));
  EXPECT_EQ(gradOf(w), (std::vector<float>{1.0f, 2.0f}));
}

} // namespace
