//===- ModelsTest.cpp - the seed's tests/test_w09_models.py ------*- C++ -*-===//
//
// The pieces of the seed's examples/gpt.py (causal attention, a block, the
// tiny GPT) written with uop::nn, checked against numpy and against the seed
// itself: the seed builds the same model, takes uop's parameters (in the
// order of its parameters(), which must be uop's registration order) and
// computes the same forward values, loss and gradients. Then the seed's
// test: the tiny GPT learns a predictable sequence.
//
//===----------------------------------------------------------------------===//

#include "Uop/Frontend/NN.h"

#include "FrontendTestUtil.h"

#include <memory>

using namespace uop;
using namespace uop::test;

namespace {

//===----------------------------------------------------------------------===//
// examples/gpt.py
//===----------------------------------------------------------------------===//

/// `t` realized (the seed's `.realize()` of a parameter), or the error tensor.
Tensor realized(Tensor t) {
  auto r = t.realize();
  return r ? *r : Tensor::makeError(llvm::toString(r.takeError()));
}

struct Attention : nn::Module {
  nn::Linear qkv, proj;
  int64_t heads;
  Tensor mask; // not a parameter
  Attention(int64_t dim, int64_t heads, int64_t ctxLen, TensorContext &ctx)
      : qkv(dim, 3 * dim, true, ctx), proj(dim, dim, true, ctx), heads(heads) {
    registerModule("qkv", qkv);
    registerModule("proj", proj);
    // -1e9 above the diagonal: no peeking (np.triu(full(-1e9), 1)).
    std::vector<float> m(ctxLen * ctxLen, 0.0f);
    for (int64_t i = 0; i < ctxLen; ++i)
      for (int64_t j = i + 1; j < ctxLen; ++j)
        m[i * ctxLen + j] = -1e9f;
    mask = Tensor::fromVector(m, {ctxLen, ctxLen}, ctx);
  }
  Tensor operator()(const Tensor &x) const {
    Shape s = x.shape();
    int64_t B = s[0], T = s[1], C = s[2], H = heads, D = C / heads;
    Tensor t = qkv(x).reshape({B, T, 3, H, D});
    Tensor q = t.select(2, 0).permute({0, 2, 1, 3}); // (B, H, T, D)
    Tensor k = t.select(2, 1).permute({0, 2, 1, 3});
    Tensor v = t.select(2, 2).permute({0, 2, 1, 3});
    Tensor att = q.matmul(k.transpose()) * (1 / std::sqrt(double(D))) +
                 mask.shrink({{0, T}, {0, T}}).reshape({1, 1, T, T});
    Tensor y = att.softmax(-1).matmul(v); // (B, H, T, D)
    return proj(y.permute({0, 2, 1, 3}).reshape({B, T, C}));
  }
};

struct Block : nn::Module {
  nn::LayerNorm ln1;
  Attention attn;
  nn::LayerNorm ln2;
  nn::Linear fc, out;
  Block(int64_t dim, int64_t heads, int64_t ctxLen, TensorContext &ctx)
      : ln1(dim, 1e-5, ctx), attn(dim, heads, ctxLen, ctx), ln2(dim, 1e-5, ctx),
        fc(dim, 4 * dim, true, ctx), out(4 * dim, dim, true, ctx) {
    registerModule("ln1", ln1);
    registerModule("attn", attn);
    registerModule("ln2", ln2);
    registerModule("fc", fc);
    registerModule("out", out);
  }
  Tensor operator()(Tensor x) const {
    x = x + attn(ln1(x));
    return x + out(fc(ln2(x)).gelu());
  }
};

struct GPT : nn::Module {
  nn::Embedding tok;
  Tensor pos;
  std::vector<std::unique_ptr<Block>> blocks;
  nn::LayerNorm ln;
  nn::Linear head;
  GPT(int64_t vocab, int64_t ctxLen, int64_t dim, int64_t heads, int64_t layers, TensorContext &ctx)
      : tok(vocab, dim, ctx), pos(realized(Tensor::randn({ctxLen, dim}, ctx) * 0.02)),
        blocks(makeBlocks(dim, heads, ctxLen, layers, ctx)), ln(dim, 1e-5, ctx),
        head(dim, vocab, true, ctx) {
    registerModule("tok", tok);
    registerParameter("pos", pos);
    for (auto [i, b] : llvm::enumerate(blocks))
      registerModule("blocks." + std::to_string(i), *b);
    registerModule("ln", ln);
    registerModule("head", head);
  }
  static std::vector<std::unique_ptr<Block>> makeBlocks(int64_t dim, int64_t heads, int64_t ctxLen,
                                                        int64_t layers, TensorContext &ctx) {
    std::vector<std::unique_ptr<Block>> bs;
    for (int64_t i = 0; i < layers; ++i)
      bs.push_back(std::make_unique<Block>(dim, heads, ctxLen, ctx));
    return bs;
  }
  Tensor operator()(const Tensor &idx) const {
    int64_t T = idx.shape()[1];
    Tensor x = tok(idx) + pos.shrink({{0, T}, {0, pos.shape()[1]}}).reshape({1, T, -1});
    for (const auto &b : blocks)
      x = (*b)(x);
    return head(ln(x));
  }
};

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
if len(sys.argv) > 3: # and the gradients
    loss.backward(ps)
    Tensor.realize_all(logits, loss, *[p.grad for p in ps])
    for i, p in enumerate(ps): np.save(f'{d}/seed_gpt_grad_{i}.npy', p.grad.numpy())
np.save(d + '/seed_gpt_logits.npy', logits.numpy()); np.save(d + '/seed_gpt_loss.npy', loss.numpy())
)py";

TEST_F(ModelsTest, LayerNormAttentionAndGPTForwardMatchNumpyAndTheSeed) {
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
  GPT gpt(V, T, 16, 2, 1, ctx);
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
  Tensor logits = gpt(x);
  EXPECT_EQ(logits.shape(), (Shape{4, T, V}));
  expectMatches(logits, "seed_gpt_logits", 1e-5);
  expectMatches(logits.reshape({-1, V}).crossEntropy(y.reshape({-1})), "seed_gpt_loss", 1e-5);
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
  GPT gpt(11, 8, 16, 2, 2, ctx);
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
