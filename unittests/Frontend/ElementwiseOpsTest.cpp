//===- ElementwiseOpsTest.cpp - the elementwise op family --------*- C++ -*-===//
//
// The unary math, the activations and the binary float ops against numpy
// in float64 (values and gradients, the gradients differenced in float64),
// with tinygrad's test_ops cases and tolerances; exact values at the edges
// (zeros, infinities, NaN, ties); and the four classes of wrong results
// issue 33 names, each a test that failed before the fix.
//
//===----------------------------------------------------------------------===//

#include "OpsTestUtil.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace uop;
using test::binaryFn;
using test::OpCase;
using test::ternaryFn;
using test::unaryFn;

namespace {

class ElementwiseOpsTest : public test::OpsTest {};

//===----------------------------------------------------------------------===//
// Unary math and activations against numpy
//===----------------------------------------------------------------------===//

const char *kUnaryRefs = R"py(
EW['exp'] = np.exp
EW['log'] = np.log
EW['log2'] = np.log2
EW['log10'] = np.log10
EW['exp2'] = np.exp2
EW['sqrt'] = np.sqrt
EW['rsqrt'] = lambda x: 1 / np.sqrt(x)
EW['reciprocal'] = lambda x: 1 / x
EW['sin'] = np.sin
EW['sin_large'] = np.sin
EW['cos'] = np.cos
EW['cos_large'] = np.cos
EW['tan'] = np.tan
EW['asin'] = np.arcsin
EW['acos'] = np.arccos
EW['atan'] = np.arctan
EW['atan_big'] = np.arctan
EW['sinh'] = np.sinh
EW['cosh'] = np.cosh
EW['tanh'] = np.tanh
EW['tanh_neg'] = np.tanh
EW['asinh'] = np.arcsinh
EW['asinh_neg'] = np.arcsinh
EW['acosh'] = np.arccosh
EW['atanh'] = np.arctanh
EW['erf'] = erf
EW['erf_big'] = erf
EW['square'] = np.square
EW['abs'] = np.abs
EW['neg'] = np.negative
EW['relu'] = lambda x: np.maximum(x, 0)
EW['sigmoid'] = sigmoid
EW['sigmoid_neg'] = sigmoid
EW['sigmoid_pos'] = sigmoid
EW['silu'] = lambda x: x * sigmoid(x)
EW['silu_neg'] = lambda x: x * sigmoid(x)
EW['quick_gelu'] = lambda x: x * sigmoid(1.702 * x)
EW['quick_gelu_neg'] = lambda x: x * sigmoid(1.702 * x)
gelu_t = lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
EW['gelu'] = gelu_t
EW['gelu_neg'] = gelu_t
EW['gelu_pos'] = gelu_t
EW['gelu_exact'] = lambda x: 0.5 * x * (1 + erf(x / math.sqrt(2)))
EW['gelu_exact_neg'] = lambda x: 0.5 * x * (1 + erf(x / math.sqrt(2)))
EW['leaky_relu'] = lambda x: np.where(x > 0, x, 0.01 * x)
EW['leaky_relu_slope'] = lambda x: np.where(x > 0, x, 0.42 * x)
EW['relu6'] = lambda x: np.clip(x, 0, 6)
EW['elu'] = lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0)))
EW['elu_alpha'] = lambda x: np.where(x > 0, x, 0.1 * np.expm1(np.minimum(x, 0)))
EW['celu'] = lambda x: np.maximum(x, 0) + np.minimum(0, 3 * np.expm1(x / 3))
SELU_A, SELU_G = 1.6732632423543772, 1.0507009873554805
EW['selu'] = lambda x: SELU_G * np.where(x > 0, x, SELU_A * np.expm1(np.minimum(x, 0)))
EW['hardsigmoid'] = lambda x: np.clip(x / 6 + 0.5, 0, 1)
EW['hardsigmoid_big'] = lambda x: np.clip(x / 6 + 0.5, 0, 1)
EW['hardswish'] = lambda x: x * np.clip(x + 3, 0, 6) / 6
EW['hardtanh'] = lambda x: np.clip(x, -1.5, 1.5)
EW['softplus'] = softplus
EW['softplus_beta'] = lambda x: softplus(3 * x) / 3
EW['softplus_big'] = softplus
EW['softplus_neg'] = softplus
EW['softsign'] = lambda x: x / (1 + np.abs(x))
EW['logsigmoid'] = lambda x: -softplus(-x)
EW['mish'] = lambda x: x * np.tanh(softplus(x))
EW['scalar_sin'] = np.sin
EW['scalar_exp'] = np.exp
)py";

TEST_F(ElementwiseOpsTest, UnaryMathAndActivations) {
  Shape s{45, 65};
  auto u = [&](const char *name, std::function<Tensor(const Tensor &)> f) {
    return OpCase(name, {s}, unaryFn(std::move(f)));
  };
  std::vector<OpCase> cases = {
      u("exp", [](const Tensor &x) { return x.exp(); }),
      u("log", [](const Tensor &x) { return x.log(); }).range(0.01, 4),
      u("log2", [](const Tensor &x) { return x.log2(); }).range(0.01, 4),
      u("log10", [](const Tensor &x) { return x.log10(); }).range(0.01, 4),
      u("exp2", [](const Tensor &x) { return x.exp2(); }),
      u("sqrt", [](const Tensor &x) { return x.sqrt(); }).range(0.01, 4),
      u("rsqrt", [](const Tensor &x) { return x.rsqrt(); }).range(0.1, 4),
      u("reciprocal", [](const Tensor &x) { return x.reciprocal(); }).range(0.1, 4),
      u("sin", [](const Tensor &x) { return x.sin(); }),
      u("cos", [](const Tensor &x) { return x.cos(); }),
      u("sin_large", [](const Tensor &x) { return x.sin(); })
          .range(1e3, 1e4)
          .tol(3e-3, 3e-3)
          .gradTol(3e-3, 3e-3),
      u("cos_large", [](const Tensor &x) { return x.cos(); })
          .range(1e3, 1e4)
          .tol(3e-3, 3e-3)
          .gradTol(3e-3, 3e-3),
      u("tan", [](const Tensor &x) { return x.tan(); }).range(-1.5, 1.5).gradTol(1e-3, 1e-2),
      u("asin", [](const Tensor &x) { return x.asin(); }).range(-0.99, 0.99).gradTol(1e-3, 1e-2),
      u("acos", [](const Tensor &x) { return x.acos(); }).range(-0.99, 0.99).gradTol(1e-3, 1e-2),
      u("atan", [](const Tensor &x) { return x.atan(); }),
      u("atan_big", [](const Tensor &x) { return x.atan(); }).range(-300, 300),
      u("sinh", [](const Tensor &x) { return x.sinh(); }).gradTol(1e-6),
      u("cosh", [](const Tensor &x) { return x.cosh(); }).gradTol(1e-6),
      u("tanh", [](const Tensor &x) { return x.tanh(); }).gradTol(1e-6),
      u("tanh_neg", [](const Tensor &x) { return x.tanh(); }).range(-300, -297).gradTol(1e-6),
      u("asinh", [](const Tensor &x) { return x.asinh(); }).gradTol(1e-6),
      u("asinh_neg", [](const Tensor &x) { return x.asinh(); }).range(-300, -297).gradTol(1e-6),
      u("acosh", [](const Tensor &x) { return x.acosh(); }).range(1.01, 4).gradTol(1e-4),
      u("atanh", [](const Tensor &x) { return x.atanh(); }).range(-0.99, 0.99).gradTol(1e-3, 1e-2),
      u("erf", [](const Tensor &x) { return x.erf(); }),
      u("erf_big", [](const Tensor &x) { return x.erf(); }).range(-400, 400),
      u("square", [](const Tensor &x) { return x.square(); }),
      u("abs", [](const Tensor &x) { return x.abs(); }),
      u("neg", [](const Tensor &x) { return -x; }),
      u("relu", [](const Tensor &x) { return x.relu(); }),
      u("sigmoid", [](const Tensor &x) { return x.sigmoid(); }),
      u("sigmoid_neg", [](const Tensor &x) { return x.sigmoid(); }).range(-400, -300),
      u("sigmoid_pos", [](const Tensor &x) { return x.sigmoid(); }).range(300, 400),
      u("silu", [](const Tensor &x) { return x.silu(); }),
      u("silu_neg", [](const Tensor &x) { return x.swish(); }).range(-400, -300),
      u("quick_gelu", [](const Tensor &x) { return x.quickGelu(); }),
      u("quick_gelu_neg", [](const Tensor &x) { return x.quickGelu(); }).range(-400, -300),
      u("gelu", [](const Tensor &x) { return x.gelu(); }),
      u("gelu_neg", [](const Tensor &x) { return x.gelu(); }).range(-400, -300),
      u("gelu_pos", [](const Tensor &x) { return x.gelu(); }).range(300, 400),
      u("gelu_exact", [](const Tensor &x) { return x.gelu("none"); }),
      u("gelu_exact_neg", [](const Tensor &x) { return x.gelu("none"); }).range(-400, -300),
      u("leaky_relu", [](const Tensor &x) { return x.leakyRelu(); }),
      u("leaky_relu_slope", [](const Tensor &x) { return x.leakyRelu(0.42); }),
      u("relu6", [](const Tensor &x) { return x.relu6(); }).range(-9, 9),
      u("elu", [](const Tensor &x) { return x.elu(); }),
      u("elu_alpha", [](const Tensor &x) { return x.elu(0.1); }),
      u("celu", [](const Tensor &x) { return x.celu(3); }),
      u("selu", [](const Tensor &x) { return x.selu(); }),
      u("hardsigmoid", [](const Tensor &x) { return x.hardsigmoid(); }).range(-5, 5),
      u("hardsigmoid_big", [](const Tensor &x) { return x.hardsigmoid(); }).range(-400, 400),
      u("hardswish", [](const Tensor &x) { return x.hardswish(); }).range(-5, 5).gradTol(1e-6),
      u("hardtanh", [](const Tensor &x) { return x.hardtanh(-1.5, 1.5); }).gradTol(1e-6),
      u("softplus", [](const Tensor &x) { return x.softplus(); }).gradTol(1e-6),
      u("softplus_beta", [](const Tensor &x) { return x.softplus(3); }).gradTol(1e-6),
      u("softplus_big", [](const Tensor &x) { return x.softplus(); }).range(300, 400).gradTol(1e-6),
      u("softplus_neg", [](const Tensor &x) { return x.softplus(); })
          .range(-400, -300)
          .gradTol(1e-6),
      u("softsign", [](const Tensor &x) { return x.softsign(); }),
      u("logsigmoid", [](const Tensor &x) { return x.logsigmoid(); }),
      u("mish", [](const Tensor &x) { return x.mish(); }),
      OpCase("scalar_sin", {{}}, unaryFn([](const Tensor &x) { return x.sin(); })),
      OpCase("scalar_exp", {{}}, unaryFn([](const Tensor &x) { return x.exp(); })),
  };
  check(cases, kUnaryRefs);
}

//===----------------------------------------------------------------------===//
// Binary float ops against numpy
//===----------------------------------------------------------------------===//

const char *kBinaryRefs = R"py(
EW['add'] = np.add
EW['sub'] = np.subtract
EW['mul'] = np.multiply
EW['div'] = np.divide
EW['add_bcast'] = np.add
EW['div_bcast'] = np.divide
EW['maximum'] = np.maximum
EW['minimum'] = np.minimum
EW['pow'] = lambda x, y: np.power(x, y)
EW['pow_pos'] = lambda x, y: np.power(x, y)
EW['pow_2'] = lambda x: x ** 2
EW['pow_3_neg'] = lambda x: x ** 3
EW['pow_m2'] = lambda x: x ** -2.0
EW['pow_05'] = lambda x: np.power(x, 0.5)
EW['pow_02_neg'] = lambda x: np.power(x, 0.2)
EW['pow_55'] = lambda x: np.power(x, 5.5)
EW['rpow_55'] = lambda x: 5.5 ** x
EW['rpow_neg'] = lambda x: np.power(-5.5, x)
EW['mod'] = np.mod
EW['fmod'] = np.fmod
EW['mod_scalar'] = lambda x: np.mod(x, 1.5)
EW['floordiv'] = np.floor_divide
EW['truncdiv'] = lambda x, y: np.trunc(x / y)
EW['lerp'] = lambda a, b, w: a + (b - a) * w
EW['lerp_scalar'] = lambda a, b: a + (b - a) * 0.25
EW['clip'] = lambda x: np.clip(x, -0.5, 1.2)
EW['clip_lo'] = lambda x: np.maximum(x, 0.3)
EW['clip_tensor'] = lambda x, lo, hi: np.minimum(np.maximum(x, np.minimum(lo, hi)), np.maximum(lo, hi))
EW['copysign'] = np.copysign
EW['copysign_bcast'] = np.copysign
EW['logaddexp'] = np.logaddexp
EW['logaddexp_far'] = np.logaddexp
)py";

TEST_F(ElementwiseOpsTest, BinaryOps) {
  Shape s{45, 65};
  auto b = [&](const char *name, std::vector<Shape> shapes,
               std::function<Tensor(const Tensor &, const Tensor &)> f) {
    return OpCase(name, std::move(shapes), binaryFn(std::move(f)));
  };
  auto u = [&](const char *name, std::function<Tensor(const Tensor &)> f) {
    return OpCase(name, {s}, unaryFn(std::move(f)));
  };
  std::vector<OpCase> cases = {
      b("add", {s, s}, [](const Tensor &x, const Tensor &y) { return x + y; }),
      b("sub", {s, s}, [](const Tensor &x, const Tensor &y) { return x - y; }),
      b("mul", {s, s}, [](const Tensor &x, const Tensor &y) { return x * y; }),
      b("div", {s, s}, [](const Tensor &x, const Tensor &y) { return x / y; })
          .range(0.5, 3)
          .gradTol(1e-4, 1e-2),
      b("add_bcast", {{45, 1}, {1, 65}}, [](const Tensor &x, const Tensor &y) { return x + y; }),
      b("div_bcast", {{45, 65}, {65}}, [](const Tensor &x, const Tensor &y) { return x / y; })
          .range(0.5, 3),
      b("maximum", {s, s}, [](const Tensor &x, const Tensor &y) { return x.maximum(y); }),
      b("minimum", {s, s}, [](const Tensor &x, const Tensor &y) { return x.minimum(y); }),
      b("pow", {s, s}, [](const Tensor &x, const Tensor &y) { return x.pow(y); })
          .gradTol(1e-4, 1e-2),
      b("pow_pos", {s, s}, [](const Tensor &x, const Tensor &y) { return x.pow(y); })
          .range(0.1, 2),
      u("pow_2", [](const Tensor &x) { return x.pow(2); }),
      u("pow_3_neg", [](const Tensor &x) { return x.pow(3); }).range(-30, -27),
      u("pow_m2", [](const Tensor &x) { return x.pow(-2.0); }).range(0.5, 2),
      u("pow_05", [](const Tensor &x) { return x.pow(0.5); }).range(0.1, 3),
      u("pow_02_neg", [](const Tensor &x) { return x.pow(0.2); }).range(-30, -27),
      u("pow_55", [](const Tensor &x) { return x.pow(5.5); }).range(0, 2).gradTol(1e-4, 1e-2),
      u("rpow_55", [](const Tensor &x) { return x.rpow(5.5); }),
      u("rpow_neg", [](const Tensor &x) { return x.rpow(-5.5); }),
      b("mod", {s, s}, [](const Tensor &x, const Tensor &y) { return x % y; })
          .range(0.5, 3)
          .forward(),
      b("fmod", {s, s}, [](const Tensor &x, const Tensor &y) { return x.fmod(y); })
          .range(0.5, 3)
          .forward(),
      u("mod_scalar", [](const Tensor &x) { return x % 1.5; }).forward(),
      b("floordiv", {s, s}, [](const Tensor &x, const Tensor &y) { return x.floorDiv(y); })
          .range(0.5, 3)
          .forward(),
      b("truncdiv", {s, s}, [](const Tensor &x, const Tensor &y) { return x.div(y, "trunc"); })
          .range(-3, -0.5)
          .forward(),
      OpCase("lerp", {s, s, s},
             ternaryFn([](const Tensor &a, const Tensor &b, const Tensor &w) {
               return a.lerp(b, w);
             })),
      b("lerp_scalar", {s, s}, [](const Tensor &x, const Tensor &y) { return x.lerp(y, 0.25); }),
      u("clip", [](const Tensor &x) { return x.clip(-0.5, 1.2); }),
      u("clip_lo", [](const Tensor &x) { return x.clip(0.3, std::nullopt); }),
      OpCase("clip_tensor", {s, {65}, {65}},
             ternaryFn([](const Tensor &x, const Tensor &lo, const Tensor &hi) {
               return x.clip(lo.minimum(hi), hi.maximum(lo));
             }))
          .forward(),
      b("copysign", {s, s}, [](const Tensor &x, const Tensor &y) { return x.copysign(y); }),
      b("copysign_bcast", {{45, 1}, {1, 65}},
        [](const Tensor &x, const Tensor &y) { return x.copysign(y); }),
      b("logaddexp", {s, s}, [](const Tensor &x, const Tensor &y) { return x.logaddexp(y); }),
      b("logaddexp_far", {{3}, {3}},
        [](const Tensor &x, const Tensor &y) { return x.logaddexp(y); })
          .values({{-100, -200, 30000}, {-1, 2, 3}}),
  };
  check(cases, kBinaryRefs);
}

//===----------------------------------------------------------------------===//
// Exact values at the edges
//===----------------------------------------------------------------------===//

#define EXPECT_VALUES(t, ...) EXPECT_EQ(values(t), (std::vector<float>{__VA_ARGS__}))
#define EXPECT_INTS(t, ...) EXPECT_EQ(ints(t), (std::vector<int64_t>{__VA_ARGS__}))

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

/// Element-wise equality with NaN equal to NaN.
void expectSame(const std::vector<float> &got, const std::vector<float> &want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    if (std::isnan(want[i]))
      EXPECT_TRUE(std::isnan(got[i])) << "at " << i << ": got " << got[i];
    else
      EXPECT_EQ(got[i], want[i]) << "at " << i;
}

TEST_F(ElementwiseOpsTest, RoundingSignAndTests) {
  Tensor v = Tensor::fromVector(
      {1.499f, 1.5f, 1.501f, 1.0f, 2.1f, 0.0f, -5.0f, -2.499f, -2.5f, -2.501f, 1e12f, -1e12f}, ctx);
  EXPECT_VALUES(v.trunc(), 1, 1, 1, 1, 2, 0, -5, -2, -2, -2, 1e12f, -1e12f);
  EXPECT_VALUES(v.floor(), 1, 1, 1, 1, 2, 0, -5, -3, -3, -3, 1e12f, -1e12f);
  EXPECT_VALUES(v.ceil(), 2, 2, 2, 1, 3, 0, -5, -2, -2, -2, 1e12f, -1e12f);
  // Half to even, as Python's round and PyTorch's.
  EXPECT_VALUES(v.round(), 1, 2, 2, 1, 2, 0, -5, -2, -2, -3, 1e12f, -1e12f);
  EXPECT_VALUES(Tensor::fromVector({2.5f, -1.5f, 0.5f, 3.5f}, ctx).round(), 2, -2, 0, 4);
  // Rounding is flat: no gradient.
  auto g = v.floor().sum().gradient({v});
  ASSERT_TRUE(!!g);
  EXPECT_EQ(values((*g)[0]), std::vector<float>(12, 0.0f));
  // sign, isnan, isinf, isfinite with infinities and NaN.
  Tensor e = Tensor::fromVector({-kInf, -1.0f, -0.0f, 0.0f, 2.0f, kInf, kNaN}, ctx);
  expectSame(values(e.sign()), {-1, -1, 0, 0, 1, 1, kNaN});
  EXPECT_VALUES(e.isnan(), 0, 0, 0, 0, 0, 0, 1);
  EXPECT_VALUES(e.isinf(), 1, 0, 0, 0, 0, 1, 0);
  EXPECT_VALUES(e.isinf(true, false), 0, 0, 0, 0, 0, 1, 0);
  EXPECT_VALUES(e.isinf(false, true), 1, 0, 0, 0, 0, 0, 0);
  EXPECT_VALUES(e.isfinite(), 0, 1, 1, 1, 1, 0, 0);
  expectSame(values(e.abs()), {kInf, 1, 0, 0, 2, kInf, kNaN});
  EXPECT_FALSE(std::signbit(values(e.abs())[2])); // |-0.0| is +0.0
  // abs' gradient at 0 is 0 (PyTorch's), sign's is 0.
  Tensor z = Tensor::fromVector({-1.0f, 0.0f, 1.0f}, ctx);
  auto ga = z.abs().sum().gradient({z});
  ASSERT_TRUE(!!ga);
  EXPECT_VALUES((*ga)[0], -1, 0, 1);
  auto gr = z.relu().sum().gradient({z});
  ASSERT_TRUE(!!gr);
  EXPECT_VALUES((*gr)[0], 0, 0, 1);
  auto gs = z.softsign().sum().gradient({z});
  ASSERT_TRUE(!!gs);
  EXPECT_VALUES((*gs)[0], 0.25, 1, 0.25);
}

TEST_F(ElementwiseOpsTest, CopysignIscloseAndComparisonsAtTheEdges) {
  std::vector<float> v = {-1.0f, -0.0f, 0.0f, 1.0f, kInf, -kInf};
  for (float a : v)
    for (float b : v) {
      auto got = values(Tensor::fromVector({a}, ctx).copysign(Tensor::fromVector({b}, ctx)));
      ASSERT_EQ(got.size(), 1u);
      EXPECT_EQ(got[0], std::copysign(a, b)) << a << " " << b;
      EXPECT_EQ(std::signbit(got[0]), std::signbit(b)) << a << " " << b;
    }
  std::vector<float> w = {kInf, -kInf, kNaN, 0.0f};
  for (float a : w)
    for (float b : w)
      for (bool equalNan : {false, true}) {
        auto got = values(Tensor::fromVector({a}, ctx).isclose(Tensor::fromVector({b}, ctx), 1e-5,
                                                               1e-8, equalNan));
        bool want = (std::isnan(a) && std::isnan(b)) ? equalNan : a == b;
        EXPECT_EQ(got[0], want) << a << " " << b << " " << equalNan;
      }
  Tensor x = Tensor::fromVector({1e-7f, 1e-8f, 1e-9f, kNaN}, ctx);
  EXPECT_VALUES(x.isclose(Tensor::fromVector({0, 0, 0, kNaN}, ctx)), 0, 1, 1, 0);
  EXPECT_VALUES(x.isclose(0.0), 0, 1, 1, 0);
  // >= and <= are false with a NaN (IEEE's, PyTorch's), as < and >.
  Tensor n = Tensor::fromVector({kNaN, 1, 2}, ctx), m = Tensor::fromVector({1, kNaN, 2}, ctx);
  EXPECT_VALUES(n >= m, 0, 0, 1);
  EXPECT_VALUES(n <= m, 0, 0, 1);
  EXPECT_VALUES(n < m, 0, 0, 0);
  EXPECT_VALUES(n == m, 0, 0, 1);
  EXPECT_VALUES(n != m, 1, 1, 0);
  EXPECT_VALUES(n >= 1, 0, 1, 1);
  // maximum with ties shares the gradient (PyTorch's).
  Tensor a = Tensor::fromVector({1, 0, 3, -4}, ctx);
  auto g = a.maximum(3.0).sum().gradient({a});
  ASSERT_TRUE(!!g);
  EXPECT_VALUES((*g)[0], 0, 0, 0.5, 0);
  auto gm = a.minimum(Tensor::fromVector({-1, -2, 3, 0}, ctx)).sum().gradient({a});
  ASSERT_TRUE(!!gm);
  EXPECT_VALUES((*gm)[0], 0, 0, 0.5, 1);
}

TEST_F(ElementwiseOpsTest, PowAtTheEdges) {
  Tensor x = Tensor::fromVector({0.0f, 0.0f, 0.0f}, ctx);
  Tensor y = Tensor::fromVector({0.0f, 0.3f, -0.3f}, ctx);
  EXPECT_VALUES(x.pow(y), 1, 0, kInf);
  // x ** 0 is 1 for every x (and its gradient 0 for x).
  Tensor b = Tensor::fromVector({-kInf, kInf, 0.0f, kNaN}, ctx);
  EXPECT_VALUES(b.pow(b.zerosLike()), 1, 1, 1, 1);
  EXPECT_VALUES(b.pow(0), 1, 1, 1, 1);
  // (-inf) ** 0.3 is inf, not NaN; a negative base with an odd integer
  // exponent keeps its sign, a non-integer one is NaN.
  expectSame(values(Tensor::fromVector({-kInf, -8.0f, -2.0f}, ctx).pow(0.3)), {kInf, kNaN, kNaN});
  EXPECT_VALUES(Tensor::fromVector({-2.0f, -3.0f}, ctx).pow(Tensor::fromVector({3, 2}, ctx)), -8,
                9);
  // Gradients at 0 as PyTorch's: c * 0 ** (c - 1).
  Tensor z = Tensor::fromVector({0.0f}, ctx);
  auto grad = [&](double c) {
    auto g = z.pow(c).sum().gradient({z});
    return g ? values((*g)[0])[0] : kNaN;
  };
  EXPECT_EQ(grad(2), 0);
  EXPECT_EQ(grad(1), 1);
  EXPECT_EQ(grad(0), 0);
  EXPECT_EQ(grad(0.3), kInf);
  EXPECT_EQ(grad(-0.3), -kInf);
  EXPECT_EQ(grad(-1), -kInf);
  EXPECT_EQ(grad(0.5), kInf);
  // A negative base with a non-integer exponent: NaN gradients, both ways.
  Tensor nb = Tensor::fromVector({-2.0f}, ctx), ne = Tensor::fromVector({0.5f}, ctx);
  auto gn = nb.pow(ne).sum().gradient({nb, ne});
  ASSERT_TRUE(!!gn);
  EXPECT_TRUE(std::isnan(values((*gn)[0])[0]));
  EXPECT_TRUE(std::isnan(values((*gn)[1])[0]));
}

// PyTorch's pow and its gradients on a grid of bases and exponents with
// zeros, negatives, non-integers and infinite bases: value pow(b, e),
// d/db = e * pow(b, e - 1) (0 where e is 0), d/de = pow(b, e) * log(b) (0
// where b is 0 and e >= 0). An infinite base gets no gradient (uop's
// limitation: no zero-valued term has a gradient there), so those are
// checked only where PyTorch's is 0.
TEST_F(ElementwiseOpsTest, PowGradientsAsPyTorchs) {
  std::vector<float> bases = {-kInf, -2, -1, -0.5, 0, 0.5, 1, 2, kInf};
  std::vector<float> exps = {-1.5, -1, -0.3, 0, 0.3, 1, 2, 3.3};
  std::vector<float> bv, ev;
  for (float b : bases)
    for (float e : exps)
      bv.push_back(b), ev.push_back(e);
  Shape s{static_cast<int64_t>(bv.size())};
  Tensor b = Tensor::fromVector(bv, s, ctx), e = Tensor::fromVector(ev, s, ctx);
  auto close = [](double got, double want) {
    if (std::isnan(want) || std::isnan(got))
      return std::isnan(want) && std::isnan(got);
    if (std::isinf(want) || std::isinf(got))
      return got == want;
    return std::fabs(got - want) <= 1e-5 + 1e-4 * std::fabs(want);
  };
  std::vector<float> value = values(b.pow(e));
  auto g = b.pow(e).sum().gradient({b, e});
  ASSERT_TRUE(!!g) << llvm::toString(g.takeError());
  std::vector<float> db = values((*g)[0]), de = values((*g)[1]);
  for (size_t i = 0; i < bv.size(); ++i) {
    double x = bv[i], y = ev[i];
    SCOPED_TRACE(std::to_string(x) + " ** " + std::to_string(y));
    double r = std::pow(x, y);
    double wantDb = y == 0 ? 0 : y * std::pow(x, y - 1);
    double wantDe = x == 0 && y >= 0 ? 0 : r * std::log(x);
    EXPECT_TRUE(close(value[i], r)) << value[i] << " vs " << r;
    if (!std::isinf(x) || wantDb == 0)
      EXPECT_TRUE(close(db[i], wantDb)) << "d/db " << db[i] << " vs " << wantDb;
    EXPECT_TRUE(close(de[i], wantDe)) << "d/de " << de[i] << " vs " << wantDe;
    // A constant exponent: the same value and d/db.
    if (std::isinf(x) && wantDb != 0)
      continue;
    Tensor bx = Tensor::fromVector({bv[i]}, ctx);
    auto gcx = bx.pow(static_cast<double>(y)).sum().gradient({bx});
    ASSERT_TRUE(!!gcx);
    EXPECT_TRUE(close(values((*gcx)[0])[0], wantDb)) << "const e: " << values((*gcx)[0])[0];
  }
  // c ** x for constants c (tinygrad's test_pow_const): 0, 0.7, -2.
  Tensor x = Tensor::fromVector({-2, -1, 0, 1, 2, 3}, ctx);
  for (double c : {0.0, 0.7, -2.0}) {
    SCOPED_TRACE(c);
    std::vector<float> v = values(x.rpow(c));
    auto gx = x.rpow(c).sum().gradient({x});
    ASSERT_TRUE(!!gx);
    std::vector<float> d = values((*gx)[0]);
    for (size_t i = 0; i < v.size(); ++i) {
      double y = -2.0 + i, r = std::pow(c, y);
      EXPECT_TRUE(close(v[i], r)) << v[i] << " vs " << r;
      double want = c == 0 && y >= 0 ? 0 : r * std::log(c);
      EXPECT_TRUE(close(d[i], want)) << d[i] << " vs " << want;
    }
  }
}

TEST_F(ElementwiseOpsTest, DivisionRoundingModes) {
  // tinygrad's test_div_rounding_mode: integer and float numerators.
  std::vector<float> num = {5, 6, 7, 0, -5, -6, -7};
  std::vector<int32_t> inum = {5, 6, 7, 0, -5, -6, -7};
  for (int d : {-10, -5, -3, -2, -1, 1, 2, 3, 5, 10}) {
    SCOPED_TRACE(d);
    Tensor fi = Tensor::fromInts(inum, {7}, ctx), ff = Tensor::fromVector(num, {7}, ctx);
    Tensor di = Tensor::fromInts({d}, {1}, ctx);
    std::vector<float> tr, fl, tru;
    for (float n : num) {
      tr.push_back(std::trunc(n / d));
      fl.push_back(std::floor(n / d));
      tru.push_back(n / d);
    }
    EXPECT_EQ(fi.div(di, "trunc").dtype(), DType::I32);
    EXPECT_EQ(values(fi.div(di, "trunc")), tr);
    EXPECT_EQ(values(fi.div(di, "floor")), fl);
    EXPECT_EQ(values(fi.floorDiv(d)), fl);
    EXPECT_EQ(fi.div(di).dtype(), DType::F32);
    test::expectNear(values(fi.div(di)), tru, 1e-6);
    EXPECT_EQ(values(ff.div(di, "trunc")), tr);
    EXPECT_EQ(values(ff.div(d, "floor")), fl);
    EXPECT_EQ(values(ff.div(static_cast<double>(d), "floor")), fl);
  }
  // Python's % and C's fmod, ints and floats (test_mod, test_fmod).
  std::vector<int32_t> a = {-4, 7, 5, 4, -7, 8, -9}, b = {2, -3, 8, -2, 3, 5, -5};
  Tensor ia = Tensor::fromInts(a, {7}, ctx), ib = Tensor::fromInts(b, {7}, ctx);
  std::vector<float> pm, cm;
  for (size_t i = 0; i < a.size(); ++i) {
    int r = a[i] % b[i];
    cm.push_back(r);
    pm.push_back(r != 0 && ((r < 0) != (b[i] < 0)) ? r + b[i] : r);
  }
  EXPECT_EQ(values(ia % ib), pm);
  EXPECT_EQ(values(ia.toFloat() % ib.toFloat()), pm);
  EXPECT_EQ(values(ia.fmod(ib)), cm);
  EXPECT_EQ(values(ia.toFloat().fmod(ib)), cm);
  EXPECT_VALUES(ia % 3, 2, 1, 2, 1, 2, 2, 0);
  EXPECT_VALUES(100 % ia, 0, 2, 0, 0, -5, 4, -8);
  EXPECT_VALUES(ia.toFloat() % 3.5, 3, 0, 1.5, 0.5, 0, 1, 1.5);
  EXPECT_VALUES(ia.fmod(3.5), -0.5, 0, 1.5, 0.5, 0, 1, -2);
  // An integer divided by zero is an error where the value is asked for.
  EXPECT_NE(errorOf(ia.floorDiv(ia.mul(0))).find("integer division by zero"), std::string::npos);
  EXPECT_NE(errorOf(ia % 0).find("integer modulo by zero"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// The classes of wrong results (issue 33): each failed before the fix
//===----------------------------------------------------------------------===//

// min and minimum were -max(-a, -b): on i32, -INT_MIN is INT_MIN again, and
// the neg of a bool does nothing, so the min of bools was their max.
TEST_F(ElementwiseOpsTest, MinOfIntMinAndOfBools) {
  const int32_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
  Tensor i = Tensor::fromInts({-1234, 0, 1234, hi, lo}, {5}, ctx);
  EXPECT_INTS(i.minimum(hi), -1234, 0, 1234, hi, lo);
  EXPECT_INTS(i.minimum(lo), lo, lo, lo, lo, lo);
  EXPECT_INTS(i.maximum(lo), -1234, 0, 1234, hi, lo);
  EXPECT_INTS(i.minimum(Tensor::fromInts({0, lo, 0, lo, 0}, {5}, ctx)), -1234, lo, 0, lo, lo);
  auto m = i.min().item();
  ASSERT_TRUE(!!m);
  EXPECT_EQ(*m, lo);
  EXPECT_INTS(i.reshape({5, 1}).min(1), -1234, 0, 1234, hi, lo);
  EXPECT_INTS(i.argmin(0), 4);
  Tensor t = Tensor::fromBools({true, false, false}, {3}, ctx);
  EXPECT_VALUES(t.minimum(true), 1, 0, 0);
  EXPECT_VALUES(t.minimum(Tensor::fromBools({true, true, false}, {3}, ctx)), 1, 0, 0);
  EXPECT_EQ(t.minimum(true).dtype(), DType::Bool);
  EXPECT_VALUES(t.min(), 0);
  EXPECT_VALUES(Tensor::fromBools({true, true}, {2}, ctx).min(), 1);
  EXPECT_VALUES(t.cummin(0).first, 1, 0, 0);
}

// logicalNot of a float tested x != 1: not 2.0 was true.
TEST_F(ElementwiseOpsTest, LogicalNotOfFloatsIsEqualToZero) {
  Tensor f = Tensor::fromVector({0.0f, 1.0f, 2.0f, -0.5f, -0.0f, kNaN, kInf}, ctx);
  EXPECT_VALUES(f.logicalNot(), 1, 0, 0, 0, 1, 0, 0);
  EXPECT_VALUES(!f, 1, 0, 0, 0, 1, 0, 0);
  EXPECT_VALUES(Tensor::fromInts({0, 1, 2, -3}, {4}, ctx).logicalNot(), 1, 0, 0, 0);
  EXPECT_VALUES(Tensor::fromBools({true, false}, {2}, ctx).logicalNot(), 0, 1);
}

// The gradients of sigmoid, tanh, gelu and silu were NaN at large negative
// inputs (0 * inf in the backward of exp); they are 0 (or the limit).
TEST_F(ElementwiseOpsTest, StableGradientsWhereFlat) {
  Tensor x = Tensor::fromVector({-400.0f, -300.0f, -100.0f, -30.0f, 300.0f, 400.0f}, ctx);
  struct Fn {
    const char *name;
    std::function<Tensor(const Tensor &)> f;
    std::vector<float> grad;
  };
  // PyTorch's gradients at these points (0 or 1 in f32, exp(-30) terms).
  std::vector<Fn> fns = {
      {"sigmoid", [](const Tensor &t) { return t.sigmoid(); },
       {0, 0, 0, std::exp(-30.0f), 0, 0}},
      {"tanh", [](const Tensor &t) { return t.tanh(); }, {0, 0, 0, 0, 0, 0}},
      {"gelu", [](const Tensor &t) { return t.gelu(); }, {0, 0, 0, 0, 1, 1}},
      {"silu", [](const Tensor &t) { return t.silu(); },
       {0, 0, 0, -29 * std::exp(-30.0f), 1, 1}},
      {"quickGelu", [](const Tensor &t) { return t.quickGelu(); }, {0, 0, 0, 0, 1, 1}},
      {"softplus", [](const Tensor &t) { return t.softplus(); }, {0, 0, 0, std::exp(-30.0f), 1, 1}},
      {"logsigmoid", [](const Tensor &t) { return t.logsigmoid(); }, {1, 1, 1, 1, 0, 0}},
      {"mish", [](const Tensor &t) { return t.mish(); }, {0, 0, 0, 0, 1, 1}},
  };
  for (const Fn &f : fns) {
    SCOPED_TRACE(f.name);
    auto g = f.f(x).sum().gradient({x});
    ASSERT_TRUE(!!g) << llvm::toString(g.takeError());
    std::vector<float> got = values((*g)[0]);
    ASSERT_EQ(got.size(), f.grad.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_FALSE(std::isnan(got[i])) << "at " << i;
      EXPECT_NEAR(got[i], f.grad[i], 1e-6 + 1e-3 * std::fabs(f.grad[i])) << "at " << i;
    }
    // And the values stay right there.
    for (float v : values(f.f(x)))
      EXPECT_FALSE(std::isnan(v));
  }
  // The gradient at 0 is the derivative (not a subgradient of |x|).
  Tensor zero = Tensor::fromVector({0.0f}, ctx);
  auto g0 = zero.sigmoid().sum().gradient({zero});
  ASSERT_TRUE(!!g0);
  EXPECT_EQ(values((*g0)[0])[0], 0.25f);
  auto t0 = zero.tanh().sum().gradient({zero});
  ASSERT_TRUE(!!t0);
  EXPECT_EQ(values((*t0)[0])[0], 1.0f);
}

// cos was sin(x + pi/2), and sin's gradient sin(x + pi/2): x + pi/2 rounds
// away the low digits of a large x (cos(1e4) lost three digits, its
// gradient too); cos(x) = 1 - 2 sin^2(x/2) keeps them.
TEST_F(ElementwiseOpsTest, CosAndSinGradientsKeepTheirDigitsOnLargeArguments) {
  std::vector<float> xs = {1e3f, 1e4f, 3e4f, 1e5f, -1e5f, 123456.7f, 1e6f};
  Tensor x = Tensor::fromVector(xs, ctx);
  std::vector<float> cos = values(x.cos());
  auto gs = x.sin().sum().gradient({x});
  auto gc = x.cos().sum().gradient({x});
  ASSERT_TRUE(gs && gc);
  std::vector<float> dsin = values((*gs)[0]), dcos = values((*gc)[0]);
  for (size_t i = 0; i < xs.size(); ++i) {
    SCOPED_TRACE(xs[i]);
    double c = std::cos(static_cast<double>(xs[i])), s = std::sin(static_cast<double>(xs[i]));
    EXPECT_NEAR(cos[i], c, 1e-6);
    EXPECT_NEAR(dsin[i], c, 1e-6);
    EXPECT_NEAR(dcos[i], -s, 1e-6);
  }
}

} // namespace
