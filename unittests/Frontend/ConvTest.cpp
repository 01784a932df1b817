//===- ConvTest.cpp - conv2d and maxPool2d ------------------------*- C++ -*-===//
//
// Tensor::conv2d and Tensor::maxPool2d against numpy (a direct loop
// convolution, window maxima) and against the seed's conv2d / max_pool2d:
// bit for bit where the seed is exact (max pooling is movement and max;
// a convolution of small integers is exact in any summation order), within
// rounding otherwise. Then the errors on bad shapes.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtil.h"

using namespace uop;
using namespace uop::test;

namespace {

class ConvTest : public FrontendTest {};

/// The cases (padding, stride), shared by the C++ side and the script.
const char *kConvScript = R"py(
import sys, numpy as np
d, seed = sys.argv[1], sys.argv[2]
L = lambda n: np.load(d + '/' + n + '.npy')
x, w, b, xi, wi = L('x'), L('w'), L('b'), L('xi'), L('wi')

def conv(x, w, b, p, s):
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (p, p), (p, p)))
    N, C, H, W = x.shape; O, _, KH, KW = w.shape
    OH, OW = (H - KH) // s + 1, (W - KW) // s + 1
    out = np.zeros((N, O, OH, OW))
    for i in range(OH):
        for j in range(OW):
            win = x[:, :, i * s:i * s + KH, j * s:j * s + KW]
            out[:, :, i, j] = np.einsum('nchw,ochw->no', win, w.astype(np.float64))
    if b is not None: out += b.reshape(1, -1, 1, 1)
    return out.astype(np.float32)

def pool(x, k, s):
    N, C, H, W = x.shape
    OH, OW = (H - k) // s + 1, (W - k) // s + 1
    out = np.zeros((N, C, OH, OW), np.float32)
    for i in range(OH):
        for j in range(OW):
            out[:, :, i, j] = x[:, :, i * s:i * s + k, j * s:j * s + k].max((2, 3))
    return out

cases = [(0, 1), (1, 1), (1, 2), (2, 3)]
for p, s in cases:
    np.save(f'{d}/np_conv_{p}_{s}.npy', conv(x, w, b, p, s))
    np.save(f'{d}/np_convi_{p}_{s}.npy', conv(xi, wi, None, p, s))
for k, s in [(2, 2), (3, 3), (3, 2), (2, 1)]:
    np.save(f'{d}/np_pool_{k}_{s}.npy', pool(x, k, s))
if seed != '-':
    sys.path.insert(0, seed)
    from uopc.tensor import Tensor
    for p, s in cases:
        np.save(f'{d}/seed_conv_{p}_{s}.npy', Tensor(x).conv2d(Tensor(w), Tensor(b), p, s).numpy())
        np.save(f'{d}/seed_convi_{p}_{s}.npy', Tensor(xi).conv2d(Tensor(wi), None, p, s).numpy())
    for k in [2, 3]:
        np.save(f'{d}/seed_pool_{k}_{k}.npy', Tensor(x).max_pool2d(k).numpy())
)py";

TEST_F(ConvTest, MatchesNumpyAndTheSeed) {
  if (!rt::test::haveNumpy())
    GTEST_SKIP() << "no numpy";
  ctx.manualSeed(3);
  // 7x7: odd sizes, so strides and pools leave rows and columns over.
  Tensor x = Tensor::randn({2, 3, 7, 7}, ctx), w = Tensor::randn({4, 3, 3, 3}, ctx),
         b = Tensor::randn({4}, ctx);
  // Small integers: every product and partial sum is exact.
  Tensor xi = (Tensor::uniform({2, 3, 7, 7}, -4, 4, ctx)).cast(DType::I32).toFloat();
  Tensor wi = (Tensor::uniform({4, 3, 3, 3}, -4, 4, ctx)).cast(DType::I32).toFloat();
  save(x, "x");
  save(w, "w");
  save(b, "b");
  save(xi, "xi");
  save(wi, "wi");
  ASSERT_TRUE(runScript(kConvScript));
  bool haveSeed = !seedRoot().empty();
  for (auto [p, s] : std::vector<std::pair<int, int>>{{0, 1}, {1, 1}, {1, 2}, {2, 3}}) {
    std::string tag = std::to_string(p) + "_" + std::to_string(s);
    Tensor y = x.conv2d(w, b, p, s), yi = xi.conv2d(wi, std::nullopt, p, s);
    expectMatches(y, "np_conv_" + tag, 1e-5);
    expectMatches(yi, "np_convi_" + tag, 0);
    if (haveSeed) {
      expectMatches(y, "seed_conv_" + tag, 1e-6);
      expectMatches(yi, "seed_convi_" + tag, 0);
    }
  }
  for (auto [k, s] : std::vector<std::pair<int, int>>{{2, 2}, {3, 3}, {3, 2}, {2, 1}}) {
    std::string tag = std::to_string(k) + "_" + std::to_string(s);
    Tensor y = x.maxPool2d(k, s);
    expectMatches(y, "np_pool_" + tag, 0);
    if (haveSeed && k == s) {
      expectMatches(y, "seed_pool_" + tag, 0);
      expectMatches(x.maxPool2d(k), "seed_pool_" + tag, 0); // the stride defaults to the kernel
    }
  }
}

TEST_F(ConvTest, Shapes) {
  Tensor x = Tensor::zeros({1, 2, 5, 6}, DType::F32, ctx);
  EXPECT_EQ(x.conv2d(Tensor::zeros({3, 2, 3, 3}, DType::F32, ctx)).shape(), (Shape{1, 3, 3, 4}));
  EXPECT_EQ(x.conv2d(Tensor::zeros({3, 2, 3, 3}, DType::F32, ctx), std::nullopt, 1, 2).shape(),
            (Shape{1, 3, 3, 3}));
  // A 1x1 kernel: one window (unsqueezed, not stacked).
  EXPECT_EQ(x.conv2d(Tensor::zeros({4, 2, 1, 1}, DType::F32, ctx)).shape(), (Shape{1, 4, 5, 6}));
  EXPECT_EQ(x.maxPool2d().shape(), (Shape{1, 2, 2, 3}));
  EXPECT_EQ(x.maxPool2d(3, 1).shape(), (Shape{1, 2, 3, 4}));
  // A 1x1 pool is the identity.
  Tensor r = Tensor::randn({1, 2, 3, 3}, ctx);
  EXPECT_EQ(values(r.maxPool2d(1)), values(r));
}

TEST_F(ConvTest, Errors) {
  Tensor x = Tensor::zeros({1, 2, 5, 5}, DType::F32, ctx);
  Tensor w = Tensor::zeros({3, 2, 3, 3}, DType::F32, ctx);
  EXPECT_EQ(errorOf(x.reshape({2, 5, 5}).conv2d(w)),
            "conv2d: input (2, 5, 5), weight (3, 2, 3, 3): needs a (N, C, H, W) input and a "
            "(O, C, KH, KW) weight");
  EXPECT_EQ(errorOf(x.conv2d(Tensor::zeros({3, 4, 3, 3}, DType::F32, ctx))),
            "conv2d: input (1, 2, 5, 5), weight (3, 4, 3, 3): the weight's 4 input channels "
            "differ from the input's 2");
  EXPECT_EQ(errorOf(x.conv2d(w, Tensor::zeros({2}, DType::F32, ctx))),
            "conv2d: input (1, 2, 5, 5), weight (3, 2, 3, 3), bias (2,): the bias must be (3,)");
  // A negative padding crops (tinygrad's); a kernel that then does not fit
  // is the error.
  EXPECT_EQ(x.conv2d(w, std::nullopt, -1).shape(), (Shape{1, 3, 1, 1}));
  EXPECT_EQ(errorOf(x.conv2d(w, std::nullopt, -2)),
            "conv2d: input (1, 2, 5, 5), weight (3, 2, 3, 3): the 3x3 kernel does not fit the "
            "padded 1x1 input");
  EXPECT_EQ(errorOf(x.conv2d(w, std::nullopt, 0, 0)),
            "conv2d: input (1, 2, 5, 5), weight (3, 2, 3, 3): padding 0 and stride 0 (stride and "
            "dilation must be >= 1)");
  EXPECT_EQ(errorOf(x.conv2d(Tensor::zeros({3, 2, 7, 1}, DType::F32, ctx))),
            "conv2d: input (1, 2, 5, 5), weight (3, 2, 7, 1): the 7x1 kernel does not fit the "
            "padded 5x5 input");
  EXPECT_EQ(errorOf(x.conv2d(w.cast(DType::I32))),
            "conv2d: input (1, 2, 5, 5), weight (3, 2, 3, 3): dtypes differ (<Tensor (1, 2, 5, 5) "
            "f32>, <Tensor (3, 2, 3, 3) i32>)");
  EXPECT_EQ(errorOf(x.conv2d(Tensor::makeError("bad weight"))), "bad weight");
  EXPECT_EQ(errorOf(x.reshape({5, 10}).maxPool2d()),
            "maxPool2d: input (5, 10), kernel 2, stride 2: needs a (N, C, H, W) input");
  EXPECT_EQ(errorOf(x.maxPool2d(6)),
            "maxPool2d: input (1, 2, 5, 5), kernel 6, stride 6: the kernel does not fit the 5x5 "
            "input");
  EXPECT_EQ(errorOf(x.maxPool2d(2, 0)),
            "maxPool2d: input (1, 2, 5, 5), kernel 2, stride 0: the kernel and the stride must be "
            ">= 1");
  EXPECT_EQ(errorOf(x.maxPool2d(0)),
            "maxPool2d: input (1, 2, 5, 5), kernel 0, stride 0: the kernel and the stride must be "
            ">= 1");
}

} // namespace
