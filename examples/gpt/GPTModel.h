//===- GPTModel.h - the seed's examples/gpt.py model in uop::nn -*- C++ -*-===//
//
// The tiny GPT of the seed's examples/gpt.py: token and position
// embeddings, pre-LayerNorm blocks of causal multi-head attention and a GELU
// MLP, a final LayerNorm and a linear head. One definition for the gpt
// example, which trains it, and unittests/Frontend/ModelsTest.cpp, which
// checks it against numpy and the seed. Header-only: it needs nothing but
// uop::nn and the Tensor API.
//
//   GPT model(vocab, ctx, dim, heads, layers);
//   Tensor logits = model(idx); // idx (B, T) i32 -> (B, T, vocab)
//
//===----------------------------------------------------------------------===//

#ifndef UOP_EXAMPLES_GPT_GPTMODEL_H
#define UOP_EXAMPLES_GPT_GPTMODEL_H

#include "Uop/Frontend/NN.h"
#include "Uop/Frontend/Tensor.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace uop::examples {

/// Tensor::gelu (the seed's tanh form) with the tanh argument kept >= -10:
/// the same values in f32 (tanh(-10) is -1 to 8 digits), but a finite
/// gradient. The seed's tanh is 2 sigmoid(2u) - 1 and sigmoid is
/// 1 / (1 + exp(-u)), whose backward is 0 * inf = NaN once exp(-2u)
/// overflows (u below about -44): a 600-step run went NaN at step 579.
inline Tensor clampedGelu(const Tensor &x) {
  Tensor u = (x + x * x * x * 0.044715) * std::sqrt(2 / M_PI);
  return x * 0.5 * (u.maximum(-10.0).tanh() + 1);
}

/// The GELU of the blocks' MLP.
enum class Gelu {
  Seed,    ///< Tensor::gelu, as the seed's gpt.py (what ModelsTest compares)
  Clamped, ///< clampedGelu: the same values, no NaN gradient in long training
};

/// Causal multi-head self-attention: qkv, softmax(q k^T / sqrt(D) + mask) v,
/// proj. The mask (-1e9 above the diagonal) is not a parameter.
struct Attention : nn::Module {
  nn::Linear qkv, proj;
  int64_t heads;
  Tensor mask;
  Attention(int64_t dim, int64_t heads, int64_t ctxLen,
            TensorContext &ctx = TensorContext::global())
      : qkv(dim, 3 * dim, true, ctx), proj(dim, dim, true, ctx), heads(heads) {
    registerModule("qkv", qkv);
    registerModule("proj", proj);
    // -1e9 above the diagonal: no peeking at later positions
    // (np.triu(full(-1e9), 1)).
    std::vector<float> m(ctxLen * ctxLen, 0.0f);
    for (int64_t i = 0; i < ctxLen; ++i)
      for (int64_t j = i + 1; j < ctxLen; ++j)
        m[i * ctxLen + j] = -1e9f;
    mask = Tensor::fromVector(m, {ctxLen, ctxLen}, ctx);
  }
  /// x (B, T, C) -> (B, T, C).
  Tensor operator()(const Tensor &x) const {
    Shape s = x.shape();
    int64_t B = s[0], T = s[1], C = s[2], H = heads, D = C / heads;
    Tensor t = qkv(x).reshape({B, T, 3, H, D});
    Tensor q = t.select(2, 0).permute({0, 2, 1, 3}); // (B, H, T, D)
    Tensor k = t.select(2, 1).permute({0, 2, 1, 3});
    Tensor v = t.select(2, 2).permute({0, 2, 1, 3});
    Tensor att = q.matmul(k.transpose()) * (1.0 / std::sqrt(double(D))) +
                 mask.shrink({{0, T}, {0, T}}).reshape({1, 1, T, T});
    Tensor y = att.softmax(-1).matmul(v); // (B, H, T, D)
    return proj(y.permute({0, 2, 1, 3}).reshape({B, T, C}));
  }
};

/// A pre-LayerNorm transformer block: x + attn(ln1(x)), then h + MLP(ln2(h))
/// with a 4x wide GELU MLP.
struct Block : nn::Module {
  nn::LayerNorm ln1;
  Attention attn;
  nn::LayerNorm ln2;
  nn::Linear fc, out;
  Gelu gelu;
  Block(int64_t dim, int64_t heads, int64_t ctxLen, Gelu gelu = Gelu::Clamped,
        TensorContext &ctx = TensorContext::global())
      : ln1(dim, 1e-5, ctx), attn(dim, heads, ctxLen, ctx), ln2(dim, 1e-5, ctx),
        fc(dim, 4 * dim, true, ctx), out(4 * dim, dim, true, ctx), gelu(gelu) {
    registerModule("ln1", ln1);
    registerModule("attn", attn);
    registerModule("ln2", ln2);
    registerModule("fc", fc);
    registerModule("out", out);
  }
  Tensor operator()(const Tensor &x) const {
    Tensor h = x + attn(ln1(x));
    Tensor a = fc(ln2(h));
    return h + out(gelu == Gelu::Seed ? a.gelu() : clampedGelu(a));
  }
};

/// The GPT: idx (B, T) i32, T <= ctxLen -> logits (B, T, vocab). Parameters
/// register as the seed's parameters() lists them (tok, pos, blocks.N, ln,
/// head); they are drawn tok, head, pos, then the blocks.
struct GPT : nn::Module {
  nn::Embedding tok;
  Tensor pos;
  std::vector<std::unique_ptr<Block>> blocks;
  nn::LayerNorm ln;
  nn::Linear head;
  GPT(int64_t vocab, int64_t ctxLen, int64_t dim, int64_t heads, int64_t layers,
      Gelu gelu = Gelu::Clamped, TensorContext &ctx = TensorContext::global())
      : tok(vocab, dim, ctx), ln(dim, 1e-5, ctx), head(dim, vocab, true, ctx) {
    registerModule("tok", tok);
    pos = Tensor::randn({ctxLen, dim}, ctx) * 0.02;
    if (llvm::Expected<Tensor> r = pos.realize(); !r)
      pos = Tensor::makeError(llvm::toString(r.takeError()));
    registerParameter("pos", pos);
    for (int64_t i = 0; i < layers; ++i) {
      blocks.push_back(std::make_unique<Block>(dim, heads, ctxLen, gelu, ctx));
      registerModule("blocks." + std::to_string(i), *blocks.back());
    }
    registerModule("ln", ln);
    registerModule("head", head);
  }
  Tensor operator()(const Tensor &idx) const {
    int64_t T = idx.shape()[1];
    Tensor x = tok(idx) + pos.slice(0, 0, T).reshape({1, T, -1});
    for (const auto &b : blocks)
      x = (*b)(x);
    return head(ln(x));
  }
};

} // namespace uop::examples

#endif // UOP_EXAMPLES_GPT_GPTMODEL_H
