//===- NNTest.cpp - layers, the parameter registry, optimizers ---*- C++ -*-===//
//
// uop::nn (the seed's uopc/nn.py): the registry's order and deduplication,
// the layers' initializations, SGD (momentum) and AdamW against the seed
// given the same gradients, AdamW's one plan over 100 steps, failed steps
// that change nothing, and the seed's tests of tests/test_w05_tensor.py
// that train (momentum numbers, the loss going down).
//
//===----------------------------------------------------------------------===//

#include "Uop/Frontend/NN.h"

#include "FrontendTestUtil.h"

using namespace uop;
using namespace uop::test;

namespace {

class NNTest : public FrontendTest {};

//===----------------------------------------------------------------------===//
// The registry
//===----------------------------------------------------------------------===//

struct Pair : nn::Module {
  nn::Linear a, b;
  Tensor scale;
  Tensor mask; // a plain member: not a parameter
  Pair(TensorContext &ctx)
      : a(2, 3, true, ctx), b(3, 1, false, ctx), scale(Tensor::ones({1}, DType::F32, ctx)),
        mask(Tensor::zeros({2}, DType::F32, ctx)) {
    registerModule("a", a);
    registerParameter("scale", scale);
    registerModule("b", b);
  }
};

struct Tied : nn::Module {
  Pair p;
  nn::Linear &alias; // the same submodule twice
  Tensor shared;     // a handle on p.a.weight: the same tensor
  Tied(TensorContext &ctx) : p(ctx), alias(p.a), shared(p.a.weight) {
    registerModule("p", p);
    registerModule("alias", alias);
    registerParameter("shared", shared);
  }
};

TEST_F(NNTest, ParametersInRegistrationOrderEachOnce) {
  Pair pair(ctx);
  auto named = pair.namedParameters();
  std::vector<std::string> names;
  for (auto &kv : named)
    names.push_back(kv.first);
  EXPECT_EQ(names, (std::vector<std::string>{"a.weight", "a.bias", "scale", "b.weight"}));
  auto ps = pair.parameters();
  ASSERT_EQ(ps.size(), 4u);
  EXPECT_TRUE(ps[0].sameAs(pair.a.weight));
  EXPECT_TRUE(ps[1].sameAs(*pair.a.bias));
  EXPECT_TRUE(ps[2].sameAs(pair.scale));
  EXPECT_TRUE(ps[3].sameAs(pair.b.weight));
  for (const Tensor &p : ps)
    EXPECT_TRUE(p.requiresGrad());
  EXPECT_FALSE(pair.mask.requiresGrad());

  Tied tied(ctx);
  EXPECT_EQ(tied.parameters().size(), 4u); // alias and shared add nothing
  // Several modules, one of them twice (the seed's parameters([l1, l2])).
  EXPECT_EQ(nn::parameters({&pair, &tied, &pair}).size(), 8u);
  // The registry is walked when asked: a frozen parameter drops out, a
  // reassigned member is seen.
  pair.scale.setRequiresGrad(false);
  EXPECT_EQ(pair.parameters().size(), 3u);
  pair.b.weight = Tensor::ones({3, 1}, DType::F32, ctx).setRequiresGrad();
  EXPECT_TRUE(pair.parameters().back().sameAs(pair.b.weight));
}

//===----------------------------------------------------------------------===//
// Layers
//===----------------------------------------------------------------------===//

TEST_F(NNTest, Initializations) {
  ctx.manualSeed(5);
  nn::Linear lin(16, 8, true, ctx);
  EXPECT_EQ(lin.weight.shape(), (Shape{16, 8}));
  EXPECT_TRUE(lin.bias->isRealized());
  for (float v : values(lin.weight))
    EXPECT_LE(std::fabs(v), 0.25f); // 1/sqrt(16)
  EXPECT_EQ(values(*lin.bias), std::vector<float>(8, 0.0f));
  nn::Conv2d conv(2, 3, 3, 1, 1, ctx);
  EXPECT_EQ(conv.weight.shape(), (Shape{3, 2, 3, 3}));
  for (float v : values(conv.weight))
    EXPECT_LE(std::fabs(v), 1 / std::sqrt(18.0f));
  EXPECT_EQ(values(conv.bias), std::vector<float>(3, 0.0f));
  nn::LayerNorm ln(4, 1e-5, ctx);
  EXPECT_EQ(values(ln.weight), std::vector<float>(4, 1.0f));
  EXPECT_EQ(values(ln.bias), std::vector<float>(4, 0.0f));
  nn::Embedding emb(50, 40, ctx);
  std::vector<float> e = values(emb.weight);
  double s2 = 0;
  for (float v : e)
    s2 += double(v) * v;
  EXPECT_NEAR(std::sqrt(s2 / e.size()), 0.02, 0.002); // randn * 0.02
  // The generator is seeded: the same seed, the same weights.
  ctx.manualSeed(5);
  nn::Linear again(16, 8, true, ctx);
  EXPECT_EQ(values(again.weight), values(lin.weight));
}

TEST_F(NNTest, LayersCompute) {
  Tensor x = Tensor::fromVector({1, 2, 3, 4, 5, 6}, {2, 3}, ctx);
  nn::Linear lin(3, 2, true, ctx);
  ASSERT_FALSE(!!lin.weight.assign(Tensor::fromVector({1, 0, 0, 1, 1, 1}, {3, 2}, ctx)));
  ASSERT_FALSE(!!lin.bias->assign(Tensor::fromVector({10, 20}, ctx)));
  EXPECT_EQ(values(lin(x)), (std::vector<float>{14, 25, 20, 31}));
  nn::Linear nobias(3, 2, false, ctx);
  EXPECT_FALSE(nobias.bias.has_value());
  EXPECT_EQ(nobias.parameters().size(), 1u);
  nn::Embedding emb(4, 2, ctx);
  ASSERT_FALSE(!!emb.weight.assign(Tensor::fromVector({0, 1, 2, 3, 4, 5, 6, 7}, {4, 2}, ctx)));
  EXPECT_EQ(values(emb(Tensor::fromInts({3, 0, 2}, {3}, ctx))),
            (std::vector<float>{6, 7, 0, 1, 4, 5}));
  EXPECT_EQ(errorOf(emb(x)), "Embedding: the indices must be i32, got f32");
  nn::Conv2d conv(1, 1, 2, 0, 1, ctx);
  ASSERT_FALSE(!!conv.weight.assign(Tensor::ones({1, 1, 2, 2}, DType::F32, ctx)));
  EXPECT_EQ(values(conv(Tensor::fromVector({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3}, ctx))),
            (std::vector<float>{12, 16, 24, 28}));
  // Bad sizes: error tensors, reported where a value is asked for.
  nn::Linear bad(0, 3, true, ctx);
  EXPECT_EQ(errorOf(bad(x)), "Linear(0, 3): the sizes must be positive");
  EXPECT_EQ(errorOf(nn::LayerNorm(-1, 1e-5, ctx)(x)), "LayerNorm(-1): the size must be positive");
}

//===----------------------------------------------------------------------===//
// Optimizers against the seed, given the same gradients
//===----------------------------------------------------------------------===//

const char *kOptScript = R"py(
import sys, numpy as np
d, seed = sys.argv[1], sys.argv[2]
L = lambda n: np.load(d + '/' + n + '.npy')
P = [L('p0'), L('p1')]
G = [[L(f'g{s}_{i}') for i in range(2)] for s in range(3)]
# numpy, in float64
def sgd(lr=0.1, mom=0.9):
    p = [x.astype(np.float64) for x in P]; v = [np.zeros_like(x) for x in p]
    for s in range(3):
        for i in range(2):
            v[i] = v[i] * mom + G[s][i]; p[i] = p[i] - lr * v[i]
            np.save(f'{d}/np_sgd_{s}_{i}.npy', p[i].astype(np.float32))
def adamw(lr=1e-2, b1=0.9, b2=0.999, eps=1e-8, wd=0.01):
    p = [x.astype(np.float64) for x in P]; m = [np.zeros_like(x) for x in p]; v = [np.zeros_like(x) for x in p]
    for s in range(3):
        t = s + 1
        for i in range(2):
            g = G[s][i].astype(np.float64)
            m[i] = b1 * m[i] + (1 - b1) * g; v[i] = b2 * v[i] + (1 - b2) * g * g
            upd = m[i] * (lr / (1 - b1 ** t)) / (np.sqrt(v[i] / (1 - b2 ** t)) + eps)
            p[i] = p[i] * (1 - lr * wd) - upd
            np.save(f'{d}/np_adamw_{s}_{i}.npy', p[i].astype(np.float32))
sgd(); adamw()
if seed != '-':
    sys.path.insert(0, seed)
    from uopc.tensor import Tensor
    from uopc.nn import SGD, AdamW
    for name, make in [('sgd', lambda ps: SGD(ps, lr=0.1, momentum=0.9)),
                       ('adamw', lambda ps: AdamW(ps, lr=1e-2, wd=0.01))]:
        ps = [Tensor(x) for x in P]
        opt = make(ps)
        for s in range(3):
            for i, p in enumerate(ps): p.grad = Tensor(G[s][i])
            opt.step()
            for i, p in enumerate(ps): np.save(f'{d}/seed_{name}_{s}_{i}.npy', p.numpy())
        if name == 'adamw':
            for i in range(2):
                np.save(f'{d}/seed_adamw_m_{i}.npy', opt.m[i].numpy()); np.save(f'{d}/seed_adamw_v_{i}.npy', opt.v[i].numpy())
)py";

TEST_F(NNTest, OptimizersMatchTheSeed) {
  if (!rt::test::haveNumpy())
    GTEST_SKIP() << "no numpy";
  ctx.manualSeed(11);
  std::vector<Tensor> init = {Tensor::randn({3, 4}, ctx), Tensor::randn({4}, ctx)};
  save(init[0], "p0");
  save(init[1], "p1");
  std::vector<std::vector<Tensor>> grads(3);
  for (int s = 0; s < 3; ++s)
    for (int i = 0; i < 2; ++i) {
      grads[s].push_back(Tensor::randn(init[i].shape(), ctx));
      save(grads[s][i], "g" + std::to_string(s) + "_" + std::to_string(i));
    }
  ASSERT_TRUE(runScript(kOptScript));
  bool haveSeed = !seedRoot().empty();
  auto fresh = [&] {
    std::vector<Tensor> ps;
    for (const Tensor &p : init)
      ps.push_back(Tensor::fromBuffer(*p.numpy(), ctx).setRequiresGrad());
    return ps;
  };
  std::vector<Tensor> sp = fresh(), ap = fresh();
  nn::SGD sgd(sp, 0.1, 0.9);
  nn::AdamW adamw(ap, 1e-2, 0.9, 0.999, 1e-8, 0.01);
  for (int s = 0; s < 3; ++s) {
    for (int i = 0; i < 2; ++i) {
      sp[i].setGrad(grads[s][i]);
      ap[i].setGrad(grads[s][i]);
    }
    ASSERT_FALSE(!!sgd.step());
    ASSERT_FALSE(!!adamw.step());
    EXPECT_EQ(adamw.steps(), s + 1);
    for (int i = 0; i < 2; ++i) {
      std::string tag = std::to_string(s) + "_" + std::to_string(i);
      EXPECT_TRUE(sp[i].isRealized() && ap[i].isRealized());
      expectMatches(sp[i], "np_sgd_" + tag, 1e-6);
      expectMatches(ap[i], "np_adamw_" + tag, 1e-5);
      if (haveSeed) {
        // SGD is a mul and an add per element: the seed's values exactly,
        // but for the fma the seed's C compiler may contract them into.
        expectMatches(sp[i], "seed_sgd_" + tag, 1e-7);
        expectMatches(ap[i], "seed_adamw_" + tag, 1e-6);
      }
    }
  }
  if (haveSeed)
    for (int i = 0; i < 2; ++i) {
      EXPECT_TRUE(adamw.m[i].isRealized() && adamw.v[i].isRealized());
      expectMatches(adamw.m[i], "seed_adamw_m_" + std::to_string(i), 1e-6);
      expectMatches(adamw.v[i], "seed_adamw_v_" + std::to_string(i), 1e-6);
    }
}

TEST_F(NNTest, AdamWStepsReuseOnePlan) {
  // The seed's test_adamw_steps_reuse_one_plan, over 100 steps: the first
  // compiles the step's program, the other 99 find its plan.
  ctx.manualSeed(0);
  nn::Linear lin(4, 2, true, ctx);
  nn::AdamW opt({lin.weight, *lin.bias}, 1e-2);
  Tensor x = Tensor::randn({8, 4}, ctx);
  auto &stats = ctx.planCache().stats();
  std::vector<double> losses;
  auto step = [&] {
    Tensor loss = lin(x).square().mean();
    opt.zeroGrad();
    ASSERT_FALSE(!!loss.backward(opt.params()));
    ASSERT_FALSE(!!opt.step({loss}));
    EXPECT_TRUE(loss.isRealized()); // in the step's program
    losses.push_back(*loss.item());
  };
  step();
  unsigned compiled = stats.compiled;
  size_t hits = ctx.planHits(), realizations = ctx.realizations();
  for (int i = 0; i < 99; ++i)
    step();
  EXPECT_EQ(stats.compiled, compiled) << "a later step compiled a new plan";
  EXPECT_EQ(ctx.planHits(), hits + 99);
  EXPECT_EQ(ctx.realizations(), realizations + 99); // one program per step
  EXPECT_EQ(opt.steps(), 100);
  EXPECT_LT(losses.back(), losses.front());
}

// minimize(loss) is zeroGrad, backward over the parameters and step({loss}):
// the same losses and parameters, bit for bit, as the three calls; a loss
// that is no scalar is backward's error and changes nothing.
TEST_F(NNTest, MinimizeIsTheThreeCalls) {
  auto train = [this](bool minimize, std::vector<float> &losses, std::vector<float> &weights) {
    TensorContext c;
    c.manualSeed(5);
    nn::Linear lin(4, 3, true, c);
    nn::AdamW opt({lin.weight, *lin.bias}, 1e-2);
    Tensor x = Tensor::randn({8, 4}, c);
    for (int i = 0; i < 5; ++i) {
      Tensor loss = lin(x).square().mean();
      if (minimize) {
        ASSERT_FALSE(!!opt.minimize(loss));
      } else {
        opt.zeroGrad();
        ASSERT_FALSE(!!loss.backward(opt.params()));
        ASSERT_FALSE(!!opt.step({loss}));
      }
      EXPECT_TRUE(loss.isRealized()); // with the updates
      losses.push_back(static_cast<float>(*loss.item()));
    }
    weights = values(lin.weight);
  };
  std::vector<float> l3, w3, lm, wm;
  train(false, l3, w3);
  train(true, lm, wm);
  EXPECT_EQ(lm, l3);
  EXPECT_EQ(wm, w3);

  nn::Linear lin(2, 2, true, ctx);
  nn::SGD opt({lin.weight, *lin.bias}, 0.1);
  std::vector<float> before = values(lin.weight);
  llvm::Error e = opt.minimize(lin(Tensor::ones({3, 2}, DType::F32, ctx))); // not a scalar
  EXPECT_TRUE(!!e);
  llvm::consumeError(std::move(e));
  EXPECT_EQ(values(lin.weight), before);
}

// A training loop's graph stays as large as what is alive: each step's ops
// are erased once no tensor reaches them (at a realize, here at every one),
// and the steps give the same losses and parameters, bit for bit, as with
// the graph kept whole; backward after an item() (the loss's graph kept by
// its tensor) still works across collections.
TEST_F(NNTest, GraphGarbageIsCollectedAcrossSteps) {
  auto train = [this](size_t collectAfterOps, std::vector<float> &losses, size_t &maxGraph,
                      std::vector<float> &weights) {
    TensorOptions o;
    o.collectAfterOps = collectAfterOps;
    TensorContext c(o);
    c.manualSeed(3);
    nn::Linear l1(6, 8, true, c), l2(8, 3, true, c);
    nn::AdamW opt(nn::parameters({&l1, &l2}), 1e-2);
    Tensor x = Tensor::randn({16, 6}, c);
    Tensor y = Tensor::fromInts(std::vector<int32_t>(16, 1), {16}, c);
    maxGraph = 0;
    for (int i = 0; i < 40; ++i) {
      Tensor loss = l2(l1(x).relu()).crossEntropy(y);
      losses.push_back(static_cast<float>(*loss.item())); // realizes; backward uses its graph
      opt.zeroGrad();
      ASSERT_FALSE(!!loss.backward(opt.params()));
      ASSERT_FALSE(!!opt.step());
      maxGraph = std::max(maxGraph, c.graphSize());
    }
    weights = values(l1.weight);
  };
  std::vector<float> collected, kept, wCollected, wKept;
  size_t collectedMax = 0, keptMax = 0;
  train(1, collected, collectedMax, wCollected);
  train(size_t(1) << 40, kept, keptMax, wKept);
  ASSERT_EQ(collected.size(), kept.size());
  for (size_t i = 0; i < kept.size(); ++i)
    EXPECT_EQ(collected[i], kept[i]) << "step " << i;
  EXPECT_EQ(wCollected, wKept);
  EXPECT_LT(kept.back(), kept.front());
  // Kept whole, the graph grows with the steps (8901 ops after 40);
  // collected, it holds about the last step (952).
  EXPECT_LT(collectedMax * 4, keptMax);
}

//===----------------------------------------------------------------------===//
// The seed's training tests (test_w05_tensor.py)
//===----------------------------------------------------------------------===//

TEST_F(NNTest, SgdMomentumStep) {
  Tensor w = Tensor::fromVector({1.0f, -2.0f}, ctx).setRequiresGrad();
  nn::SGD opt({w}, 0.1, 0.9);
  for (int i = 0; i < 2; ++i) {
    Tensor loss = w.square().sum();
    opt.zeroGrad();
    ASSERT_FALSE(!!loss.backward(opt.params()));
    ASSERT_FALSE(!!opt.step());
  }
  // v1 = 2 w0, w1 = w0 - .1 v1 = .8 w0; v2 = .9 v1 + 2 w1 = 3.4 w0,
  // w2 = .8 w0 - .34 w0 = .46 w0
  expectNear(values(w), {0.46f, -0.92f}, 1e-5);
  expectNear(values(opt.v[0]), {3.4f, -6.8f}, 1e-5);
}

TEST_F(NNTest, TrainingReducesLoss) {
  ctx.manualSeed(1);
  Tensor X = Tensor::randn({64, 8}, ctx);
  Tensor Y = (X.sum(1) > 0).cast(DType::I32);
  ASSERT_TRUE(!!Y.realize());
  nn::Linear l1(8, 16, true, ctx), l2(16, 2, true, ctx);
  nn::AdamW opt(nn::parameters({&l1, &l2}), 1e-2);
  EXPECT_EQ(opt.params().size(), 4u);
  std::vector<double> losses;
  for (int i = 0; i < 40; ++i) {
    Tensor loss = l2(l1(X).relu()).crossEntropy(Y);
    opt.zeroGrad();
    ASSERT_FALSE(!!loss.backward(opt.params()));
    ASSERT_FALSE(!!opt.step({loss}));
    auto l = loss.item();
    ASSERT_TRUE(!!l) << llvm::toString(l.takeError());
    losses.push_back(*l);
  }
  EXPECT_LT(losses.back(), 0.3 * losses.front()) << losses.front() << " -> " << losses.back();
  // The same model with SGD and momentum learns too.
  ctx.manualSeed(1);
  nn::Linear m1(8, 16, true, ctx), m2(16, 2, true, ctx);
  nn::SGD sgd(nn::parameters({&m1, &m2}), 0.5, 0.9);
  double first = 0, last = 0;
  for (int i = 0; i < 40; ++i) {
    Tensor loss = m2(m1(X).relu()).crossEntropy(Y);
    sgd.zeroGrad();
    ASSERT_FALSE(!!loss.backward(sgd.params()));
    ASSERT_FALSE(!!sgd.step({loss}));
    (i == 0 ? first : last) = *loss.item();
  }
  EXPECT_LT(last, 0.5 * first) << first << " -> " << last;
}

TEST_F(NNTest, AFailedStepChangesNothing) {
  Tensor p = Tensor::fromVector({1, 2}, ctx).setRequiresGrad();
  Tensor q = Tensor::fromVector({3}, ctx).setRequiresGrad();
  nn::AdamW opt({p, q});
  p.setGrad(Tensor::ones({2}, DType::F32, ctx));
  std::string msg = llvm::toString(opt.step());
  EXPECT_EQ(msg, "parameter 1 <Tensor (1,) f32 grad> has no gradient (backward first)");
  EXPECT_EQ(opt.steps(), 0);
  q.setGrad(Tensor::ones({2}, DType::F32, ctx));
  EXPECT_EQ(llvm::toString(opt.step()),
            "the gradient of parameter 1 <Tensor (1,) f32 grad> is <Tensor (2,) f32>");
  // A program that fails to run (an extra tensor that cannot realize):
  // the parameters and the state keep their values.
  q.setGrad(Tensor::ones({1}, DType::F32, ctx));
  Tensor byZero = Tensor::fromInts({1}, {1}, ctx).floorDiv(Tensor::fromInts({0}, {1}, ctx));
  EXPECT_NE(llvm::toString(opt.step({byZero})).find("integer division by zero"),
            std::string::npos);
  EXPECT_EQ(opt.steps(), 0);
  EXPECT_TRUE(p.isRealized() && opt.m[0].isRealized() && opt.v[1].isRealized());
  EXPECT_EQ(values(p), (std::vector<float>{1, 2}));
  EXPECT_EQ(values(opt.m[0]), (std::vector<float>{0, 0}));
  ASSERT_FALSE(!!opt.step());
  EXPECT_EQ(opt.steps(), 1);
  EXPECT_NEAR(values(p)[0], 1 - 1e-3, 1e-6);
  opt.zeroGrad();
  EXPECT_FALSE(p.grad().has_value());
  EXPECT_FALSE(q.grad().has_value());
  nn::SGD sgd({p});
  EXPECT_EQ(llvm::toString(sgd.step()),
            "parameter 0 <Tensor (2,) f32 grad> has no gradient (backward first)");
}

//===----------------------------------------------------------------------===//
// Realization: the frontend's plan map and recycled output buffers
//===----------------------------------------------------------------------===//

TEST_F(NNTest, RecycledOutputsHoldTheNewValues) {
  // Each round's result dies before the next runs, so the next output is
  // the recycled buffer of the last: stale contents must not show through,
  // also where most of the output is padding.
  for (int round = 0; round < 5; ++round) {
    Tensor x = Tensor::fromVector({float(round), float(round + 1)}, ctx);
    std::vector<float> want(16, 0.0f);
    want[7] = 2.0f * round;
    want[8] = 2.0f * (round + 1);
    EXPECT_EQ(values(x.pad({{7, 7}}) * 2), want) << "round " << round;
  }
  EXPECT_EQ(ctx.planCache().stats().compiled, 1u);
  EXPECT_EQ(ctx.planHits(), 4u);
  EXPECT_EQ(ctx.realizations(), 5u);
}

} // namespace
