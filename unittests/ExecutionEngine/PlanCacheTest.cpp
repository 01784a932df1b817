//===- PlanCacheTest.cpp - the structural plan cache ------------*- C++ -*-===//
//
// The seed's kernelize tests that are about plans: kernel counts
// (test_kernelize_fuses_elementwise_and_splits_reductions), reads deleted by
// simplification (test_deleted_reads_do_not_shift_kernel_arguments), and
// the structural cache (test_adamw_steps_reuse_one_plan): same structure,
// other contents -> no recompilation, in the process and across processes.
//
//===----------------------------------------------------------------------===//

#include "Uop/ExecutionEngine/PlanCache.h"

#include "../Runtime/TestUtil.h"
#include "Uop/IR/UopDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
namespace rt = ::uop::rt;

namespace {

class PlanCacheTest : public ::testing::Test {
protected:
  PlanCacheTest() : env("UOP_CACHE", dir.path().c_str()) {
    context.loadDialect<mlir::uop::UopDialect, func::FuncDialect>();
  }
  OwningOpRef<ModuleOp> parse(const std::string &text) {
    auto m = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(m) << text;
    return m;
  }
  static rt::HostBuffer f32(std::vector<float> v) {
    rt::HostBuffer b(rt::DType::F32, {static_cast<int64_t>(v.size())});
    std::copy(v.begin(), v.end(), b.as<float>());
    return b;
  }

  rt::test::TempDir dir;
  rt::test::ScopedEnv env;
  MLIRContext context;
};

/// softmax over the last axis of a 4x8 buffer, as the seed's Tensor builds it.
const char *kSoftmax = R"mlir(
func.func @main() -> tensor<4x8xf32> {
  %b = uop.buffer 0 : tensor<32xf32>
  %x = uop.reshape %b, [4, 8] : tensor<32xf32>
  %m = uop.reduce %x <max> pop 1 : tensor<4x8xf32>
  %m1 = uop.reshape %m, [4, 1] : tensor<4xf32>
  %me = uop.expand %m1, [4, 8] : tensor<4x1xf32>
  %neg = uop.const -1.0 : f32
  %n1 = uop.reshape %neg, [1, 1] : f32
  %ne = uop.expand %n1, [4, 8] : tensor<1x1xf32>
  %mn = uop.mul %me, %ne : tensor<4x8xf32>
  %d = uop.add %x, %mn : tensor<4x8xf32>
  %l = uop.const 1.44269502 : f32
  %l1 = uop.reshape %l, [1, 1] : f32
  %le = uop.expand %l1, [4, 8] : tensor<1x1xf32>
  %dl = uop.mul %d, %le : tensor<4x8xf32>
  %e = uop.exp2 %dl : tensor<4x8xf32>
  %s = uop.reduce %e <add> pop 1 : tensor<4x8xf32>
  %s1 = uop.reshape %s, [4, 1] : tensor<4xf32>
  %r = uop.recip %s1 : tensor<4x1xf32>
  %re = uop.expand %r, [4, 8] : tensor<4x1xf32>
  %o = uop.mul %e, %re : tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
)mlir";

/// relu(a * 2 + 1) * 3 over 8 elements: one kernel.
const char *kChain = R"mlir(
func.func @main() -> tensor<8xf32> {
  %a = uop.buffer 0 : tensor<8xf32>
  %c2 = uop.const 2.0 : f32
  %t2 = uop.reshape %c2, [1] : f32
  %e2 = uop.expand %t2, [8] : tensor<1xf32>
  %m = uop.mul %a, %e2 : tensor<8xf32>
  %c1 = uop.const 1.0 : f32
  %t1 = uop.reshape %c1, [1] : f32
  %e1 = uop.expand %t1, [8] : tensor<1xf32>
  %s = uop.add %m, %e1 : tensor<8xf32>
  %z = uop.const 0.0 : f32
  %tz = uop.reshape %z, [1] : f32
  %ez = uop.expand %tz, [8] : tensor<1xf32>
  %lt = uop.cmplt %ez, %s : tensor<8xf32>
  %relu = uop.where %lt, %s, %ez : tensor<8xi1>, tensor<8xf32>, tensor<8xf32>
  %c3 = uop.const 3.0 : f32
  %t3 = uop.reshape %c3, [1] : f32
  %e3 = uop.expand %t3, [8] : tensor<1xf32>
  %o = uop.mul %relu, %e3 : tensor<8xf32>
  return %o : tensor<8xf32>
}
)mlir";

TEST_F(PlanCacheTest, SoftmaxIsThreeKernelsAndRuns) {
  auto m = parse(kSoftmax);
  ASSERT_TRUE(m);
  mlir::uop::PlanCache cache;
  auto plan = cache.get(*m);
  ASSERT_TRUE(succeeded(plan));
  EXPECT_EQ((*plan)->plan().numLaunches, 3u); // max, sum, and the elementwise output
  std::vector<float> x(32);
  for (int i = 0; i < 32; ++i)
    x[i] = std::sin(0.7f * i) * 3;
  rt::HostBuffer in = f32(x);
  auto values = (*plan)->run({{0, &in}});
  ASSERT_TRUE(values.ok()) << values.error();
  ASSERT_EQ(values->size(), 1u);
  const rt::HostBuffer &out = (*values)[0];
  EXPECT_EQ(out.shape(), (std::vector<int64_t>{4, 8}));
  for (int r = 0; r < 4; ++r) {
    float mx = -INFINITY, sum = 0;
    for (int c = 0; c < 8; ++c)
      mx = std::max(mx, x[r * 8 + c]);
    for (int c = 0; c < 8; ++c)
      sum += std::exp(x[r * 8 + c] - mx);
    for (int c = 0; c < 8; ++c)
      EXPECT_NEAR(out.as<float>()[r * 8 + c], std::exp(x[r * 8 + c] - mx) / sum, 1e-6);
  }
}

TEST_F(PlanCacheTest, ElementwiseChainIsOneKernel) {
  auto m = parse(kChain);
  ASSERT_TRUE(m);
  mlir::uop::PlanCache cache;
  auto plan = cache.get(*m);
  ASSERT_TRUE(succeeded(plan));
  EXPECT_EQ((*plan)->plan().numLaunches, 1u);
  rt::HostBuffer in = f32({-3, -1, -0.5, 0, 0.25, 1, 2, 10});
  auto values = (*plan)->run({{0, &in}});
  ASSERT_TRUE(values.ok()) << values.error();
  for (int i = 0; i < 8; ++i) {
    float v = in.as<float>()[i] * 2 + 1;
    EXPECT_FLOAT_EQ((*values)[0].as<float>()[i], (v > 0 ? v : 0) * 3);
  }
}

TEST_F(PlanCacheTest, SameStructureCompilesOnceInAProcess) {
  mlir::uop::PlanCache cache;
  auto m1 = parse(kChain), m2 = parse(kChain);
  auto p1 = cache.get(*m1);
  auto p2 = cache.get(*m2); // another module, the same structure
  ASSERT_TRUE(succeeded(p1) && succeeded(p2));
  EXPECT_EQ(*p1, *p2);
  EXPECT_EQ(cache.stats().compiled, 1u);
  EXPECT_EQ(cache.stats().memoryHits, 1u);
  // Other contents, same plan, other results.
  rt::HostBuffer a = f32({1, 1, 1, 1, 1, 1, 1, 1}), b = f32({2, 2, 2, 2, 2, 2, 2, 2});
  auto va = (*p1)->run({{0, &a}});
  auto vb = (*p1)->run({{0, &b}});
  ASSERT_TRUE(va.ok() && vb.ok());
  EXPECT_FLOAT_EQ((*va)[0].as<float>()[0], 9);
  EXPECT_FLOAT_EQ((*vb)[0].as<float>()[0], 15);
  // A different constant is a different structure.
  std::string other = kChain;
  other.replace(other.find("3.0"), 3, "4.0");
  auto m3 = parse(other);
  auto p3 = cache.get(*m3);
  ASSERT_TRUE(succeeded(p3));
  EXPECT_NE(*p3, *p1);
  EXPECT_EQ(cache.stats().compiled, 2u);
  EXPECT_EQ(cache.size(), 2u);
}

TEST_F(PlanCacheTest, AnotherProcessLoadsThePlanFromDisk) {
  auto m = parse(kSoftmax);
  {
    mlir::uop::PlanCache first;
    ASSERT_TRUE(succeeded(first.get(*m)));
    EXPECT_EQ(first.stats().compiled, 1u);
  }
  // A new cache is what a new process has: only the disk.
  mlir::uop::PlanCache second;
  auto plan = second.get(*m);
  ASSERT_TRUE(succeeded(plan));
  EXPECT_EQ(second.stats().compiled, 0u);
  EXPECT_EQ(second.stats().diskHits, 1u);
  EXPECT_EQ((*plan)->plan().numLaunches, 3u);
  rt::HostBuffer in = f32(std::vector<float>(32, 1.0f));
  auto values = (*plan)->run({{0, &in}});
  ASSERT_TRUE(values.ok()) << values.error();
  EXPECT_NEAR((*values)[0].as<float>()[5], 1.0f / 8, 1e-7);
}

TEST_F(PlanCacheTest, DeletedReadsDoNotShiftKernelArguments) {
  // t * 0 simplifies to a constant: t is no longer read, and must not be
  // overwritten.
  auto m = parse(R"mlir(
func.func @main() -> tensor<3xi32> {
  %t = uop.buffer 0 : tensor<3xi32>
  %z = uop.const 0 : i32
  %z1 = uop.reshape %z, [1] : i32
  %ze = uop.expand %z1, [3] : tensor<1xi32>
  %o = uop.mul %t, %ze : tensor<3xi32>
  return %o : tensor<3xi32>
}
)mlir");
  mlir::uop::PlanCache cache;
  auto plan = cache.get(*m);
  ASSERT_TRUE(succeeded(plan));
  rt::HostBuffer t(rt::DType::I32, {3});
  for (int i = 0; i < 3; ++i)
    t.as<int32_t>()[i] = i + 1;
  auto values = (*plan)->run({{0, &t}});
  ASSERT_TRUE(values.ok()) << values.error();
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ((*values)[0].as<int32_t>()[i], 0);
    EXPECT_EQ(t.as<int32_t>()[i], i + 1);
  }
}

TEST_F(PlanCacheTest, ContiguousInputRootsAreAliasedAndMultipleValues) {
  // The first value is the input itself (no kernel), the second a sum.
  auto m = parse(R"mlir(
func.func @main() -> (tensor<2x3xf32>, f32) {
  %b = uop.buffer 0 : tensor<6xf32>
  %v = uop.reshape %b, [2, 3] : tensor<6xf32>
  %s = uop.reduce %b <add> pop 1 : tensor<6xf32>
  return %v, %s : tensor<2x3xf32>, f32
}
)mlir");
  mlir::uop::PlanCache cache;
  auto plan = cache.get(*m);
  ASSERT_TRUE(succeeded(plan));
  EXPECT_EQ((*plan)->plan().numLaunches, 1u);
  rt::HostBuffer in = f32({1, 2, 3, 4, 5, 6});
  auto values = (*plan)->run({{0, &in}});
  ASSERT_TRUE(values.ok()) << values.error();
  ASSERT_EQ(values->size(), 2u);
  EXPECT_EQ((*values)[0].shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_FLOAT_EQ((*values)[0].as<float>()[4], 5);
  EXPECT_EQ((*values)[1].rank(), 0);
  EXPECT_FLOAT_EQ((*values)[1].as<float>()[0], 21);
}

TEST_F(PlanCacheTest, BadInputsAreErrors) {
  auto m = parse(kChain);
  mlir::uop::PlanCache cache;
  auto plan = cache.get(*m);
  ASSERT_TRUE(succeeded(plan));
  auto missing = (*plan)->run({});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("missing input for buffer slot 0"), std::string::npos);
  rt::HostBuffer wrong(rt::DType::F32, {7});
  auto bad = (*plan)->run({{0, &wrong}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("8 x f32"), std::string::npos) << bad.error();
}

} // namespace
