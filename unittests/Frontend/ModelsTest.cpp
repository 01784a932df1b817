//===- ModelsTest.cpp - the seed's tests/test_w09_models.py ------*- C++ -*-===//
//
// The pieces of the seed's examples/gpt.py (causal attention, a block, the
// tiny GPT) written with uop::nn (examples/gpt/GPTModel.h, the gpt example's
// model, with the seed's gelu), checked against numpy and against the seed
// itself: the seed builds the same model, takes uop's parameters (in the
// order of its parameters(), which must be uop's registration order) and
// computes the same forward values, loss and gradients (of every
// parameter, one program). Then the seed's test: the tiny GPT learns a
// predictable sequence.
//
//===----------------------------------------------------------------------===//

#include "Uop/Frontend/NN.h"

#include "FrontendTestUtil.h"
#include "GPTModel.h" // examples/gpt: the example's model

#include <memory>

using namespace uop;
using namespace uop::examples;
using namespace uop::test;

namespace {

class ModelsTest : public FrontendTest {
protected:
  /// Saves the parameters of `m` as NAME_0.npy, NAME_1.npy, ... (in
  /// parameters() order) and returns how many.
  size_t saveParameters(const nn::Module &m, const std::string &name) {
    auto ps = m.parameters();
    for (auto [i, p] : llvm::enumerate(ps))
      save(p, name + "_" + std::to_string(i));
    return ps.size();
  }
};

/// The tiny GPT's data: windows of 0, 1, ..., V-1, 0, 1, ... (the seed's
/// test_tiny_gpt_learns).
Tensor windows(int64_t V, int64_t T, int64_t shift, TensorContext &ctx) {
  std::vector<int32_t> v;
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < T; ++j)
      v.push_back(static_cast<int32_t>((i + j + shift) % V));
  return Tensor::fromInts(v, {4, T}, ctx);
}

const char *kModelsScript = R"py(
import sys, math, numpy as np
d, seed = sys.argv[1], sys.argv[2]
L = lambda n: np.load(d + '/' + n + '.npy')
x = L('ln_x')
np.save(d + '/np_ln.npy', ((x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)).astype(np.float32))
if seed == '-': sys.exit(0)
sys.path.insert(0, seed); sys.path.insert(0, seed + '/examples')
from gpt import GPT, Attention
from uopc.tensor import Tensor
from uopc.nn import LayerNorm, parameters
np.save(d + '/seed_ln.npy', LayerNorm(8)(Tensor(x)).numpy())
def load_params(model, name):
    ps = parameters(model)
    for i, p in enumerate(ps): p.assign(Tensor(L(f'{name}_{i}'))).realize()
    return ps
att = Attention(8, 2, 6)
assert len(load_params(att, 'att')) == int(L('att_n')[0])
np.save(d + '/seed_att.npy', att(Tensor(L('att_x'))).numpy())
V, T = 11, 8
gpt = GPT(V, T, 16, 2, 1)
ps = load_params(gpt, 'gpt')
assert len(ps) == int(L('gpt_n')[0])
logits = gpt(Tensor(L('gpt_x')))
loss = logits.reshape(-1, V).cross_entropy(Tensor(L('gpt_y')).reshape(-1))
loss.backward(ps)
Tensor.realize_all(logits, loss, *[p.grad for p in ps]) # one program
for i, p in enumerate(ps): np.save(f'{d}/seed_gpt_grad_{i}.npy', p.grad.numpy())
np.save(d + '/seed_gpt_logits.npy', logits.numpy()); np.save(d + '/seed_gpt_loss.npy', loss.numpy())
)py";

TEST_F(ModelsTest, LayerNormAttentionAndGPTMatchNumpyAndTheSeed) {
  if (!rt::test::haveNumpy())
    GTEST_SKIP() << "no numpy";
  ctx.manualSeed(0);
  Tensor lnx = Tensor::randn({4, 8}, ctx);
  save(lnx, "ln_x");
  Attention att(8, 2, 6, ctx);
  EXPECT_EQ(att.parameters().size(), 4u); // the mask is not one
  save(Tensor::fromVector({float(saveParameters(att, "att"))}, ctx), "att_n");
  Tensor ax = Tensor::randn({1, 6, 8}, ctx);
  save(ax, "att_x");
  const int64_t V = 11, T = 8;
  GPT gpt(V, T, 16, 2, 1, Gelu::Seed, ctx);
  save(Tensor::fromVector({float(saveParameters(gpt, "gpt"))}, ctx), "gpt_n");
  Tensor x = windows(V, T, 0, ctx), y = windows(V, T, 1, ctx);
  save(x, "gpt_x");
  save(y, "gpt_y");
  ASSERT_TRUE(runScript(kModelsScript));

  nn::LayerNorm ln(8, 1e-5, ctx);
  expectMatches(ln(lnx), "np_ln", 1e-5);
  if (seedRoot().empty())
    return;
  expectMatches(ln(lnx), "seed_ln", 1e-6);
  expectMatches(att(ax), "seed_att", 1e-5);
  // The loss is built before anything is realized: realizing the logits
  // first would make them data, where the gradients stop (as in the seed).
  Tensor logits = gpt(x);
  EXPECT_EQ(logits.shape(), (Shape{4, T, V}));
  Tensor loss = logits.reshape({-1, V}).crossEntropy(y.reshape({-1}));
  auto ps = gpt.parameters();
  ASSERT_FALSE(!!loss.backward(ps));
  std::vector<Tensor> all = {logits, loss};
  for (const Tensor &p : ps)
    all.push_back(*p.grad());
  ASSERT_FALSE(!!Tensor::realizeAll(all)); // one program, as the seed's
  expectMatches(logits, "seed_gpt_logits", 1e-5);
  expectMatches(loss, "seed_gpt_loss", 1e-5);
  for (auto [i, p] : llvm::enumerate(ps))
    expectMatches(*p.grad(), "seed_gpt_grad_" + std::to_string(i), 1e-5);
}

TEST_F(ModelsTest, TinyGPTLearns) {
  // The seed's test_tiny_gpt_learns.
  ctx.manualSeed(0);
  const int64_t V = 11, T = 8;
  GPT model(V, T, 16, 2, 1, Gelu::Seed, ctx);
  nn::AdamW opt(model.parameters(), 1e-2);
  Tensor x = windows(V, T, 0, ctx), y = windows(V, T, 1, ctx);
  std::vector<double> losses;
  for (int i = 0; i < 30; ++i) {
    Tensor loss = model(x).reshape({-1, V}).crossEntropy(y.reshape({-1}));
    opt.zeroGrad();
    ASSERT_FALSE(!!loss.backward(opt.params()));
    ASSERT_FALSE(!!opt.step({loss}));
    auto l = loss.item();
    ASSERT_TRUE(!!l) << llvm::toString(l.takeError());
    losses.push_back(*l);
  }
  EXPECT_LT(losses.back(), 0.25 * losses.front()) << losses.front() << " -> " << losses.back();
}

TEST_F(ModelsTest, AttentionIsCausal) {
  ctx.manualSeed(0);
  Attention att(8, 2, 6, ctx);
  Tensor x = Tensor::randn({1, 6, 8}, ctx);
  // Change the future (positions 4 and 5): the past does not see it.
  std::vector<float> bump(6 * 8, 0.0f);
  for (int i = 4 * 8; i < 6 * 8; ++i)
    bump[i] = 10;
  std::vector<float> y1 = values(att(x)),
                     y2 = values(att(x + Tensor::fromVector(bump, {1, 6, 8}, ctx)));
  ASSERT_EQ(y1.size(), 48u);
  int changed = 0;
  for (int i = 0; i < 48; ++i) {
    if (i < 4 * 8)
      EXPECT_NEAR(y1[i], y2[i], 1e-5) << "at " << i;
    else
      changed += std::fabs(y1[i] - y2[i]) > 1e-3;
  }
  EXPECT_GT(changed, 0); // the future does see it
}

TEST_F(ModelsTest, GPTParameterOrder) {
  GPT gpt(11, 8, 16, 2, 2, Gelu::Seed, ctx);
  std::vector<std::string> names;
  for (auto &kv : gpt.namedParameters())
    names.push_back(kv.first);
  ASSERT_EQ(names.size(), 2 + 2 * 12 + 4u);
  EXPECT_EQ(names[0], "tok.weight");
  EXPECT_EQ(names[1], "pos");
  EXPECT_EQ(names[2], "blocks.0.ln1.weight");
  EXPECT_EQ(names[4], "blocks.0.attn.qkv.weight");
  EXPECT_EQ(names[13], "blocks.0.out.bias");
  EXPECT_EQ(names[14], "blocks.1.ln1.weight");
  EXPECT_EQ(names.back(), "head.bias");
}

} // namespace
