//===- JitTest.cpp - TinyJit: capture, replay, what it refuses ---*- C++ -*-===//
//
// uop::TinyJit (tinygrad's TinyJit): a training step replayed from its
// third call gives the eager step's numbers bit for bit (AdamW, SGD with
// momentum), builds no graph and compiles nothing; inputs can change
// between calls, constants are read as captured, state as it is at each
// replay; the errors: data made inside the function, inputs of another
// shape, a nested capture, the function's own.
//
//===----------------------------------------------------------------------===//

#include "Uop/Frontend/Jit.h"
#include "Uop/Frontend/NN.h"

#include "FrontendTestUtil.h"

using namespace uop;
using namespace uop::test;

namespace {

class JitTest : public FrontendTest {};

/// A 6-5-3 MLP and its optimizer, built the same way from one seed.
struct Model : nn::Module {
  nn::Linear l1, l2;
  explicit Model(TensorContext &ctx) : l1(6, 5, true, ctx), l2(5, 3, true, ctx) {
    registerModule("l1", l1);
    registerModule("l2", l2);
  }
  Tensor operator()(const Tensor &x) const { return l2(l1(x).relu()); }
};

/// One training step: the loss of (x, y), backward, the optimizer's step.
static llvm::Expected<std::vector<Tensor>> trainStep(Model &m, nn::Optimizer &opt,
                                                     llvm::ArrayRef<Tensor> in) {
  Tensor loss = m(in[0]).crossEntropy(in[1]);
  if (auto e = opt.minimize(loss))
    return std::move(e);
  return std::vector<Tensor>{loss};
}

/// Batch `s`: a (4, 6) input and its labels, different every step.
static std::pair<Tensor, Tensor> batch(TensorContext &ctx, int s) {
  std::vector<float> x(24);
  std::vector<int32_t> y(4);
  for (int i = 0; i < 24; ++i)
    x[i] = std::sin(0.37f * (i + 1) * (s + 1));
  for (int i = 0; i < 4; ++i)
    y[i] = (i + s) % 3;
  return {Tensor::fromVector(x, {4, 6}, ctx), Tensor::fromInts(y, {4}, ctx)};
}

template <typename Opt> void expectReplayMatchesEager(TensorContext &ctx, int steps) {
  ctx.manualSeed(3);
  Model eager(ctx);
  ctx.manualSeed(3);
  Model jitted(ctx);
  Opt eagerOpt(eager.parameters()), jitOpt(jitted.parameters());
  TinyJit jit(ctx, [&](llvm::ArrayRef<Tensor> in) { return trainStep(jitted, jitOpt, in); });
  for (int s = 0; s < steps; ++s) {
    SCOPED_TRACE("step " + std::to_string(s));
    auto [x, y] = batch(ctx, s);
    auto want = trainStep(eager, eagerOpt, {x, y});
    ASSERT_TRUE(!!want) << llvm::toString(want.takeError());
    auto got = jit({x, y});
    ASSERT_TRUE(!!got) << llvm::toString(got.takeError());
    ASSERT_EQ(got->size(), 1u);
    EXPECT_EQ(jit.captured(), s >= 1);
    EXPECT_EQ(*(*got)[0].toVector(), *(*want)[0].toVector()); // the loss, bit for bit
    for (auto [p, q] : llvm::zip(eager.parameters(), jitted.parameters()))
      EXPECT_EQ(*p.toVector(), *q.toVector());
  }
}

TEST_F(JitTest, AdamWReplayMatchesEager) { expectReplayMatchesEager<nn::AdamW>(ctx, 6); }

struct Momentum : nn::SGD {
  explicit Momentum(std::vector<Tensor> ps) : nn::SGD(std::move(ps), 0.05, 0.9) {}
};
TEST_F(JitTest, SGDMomentumReplayMatchesEager) { expectReplayMatchesEager<Momentum>(ctx, 6); }

TEST_F(JitTest, ReplayBuildsNoGraphAndCompilesNothing) {
  ctx.manualSeed(0);
  Model m(ctx);
  nn::AdamW opt(m.parameters(), 1e-2);
  TinyJit jit(ctx, [&](llvm::ArrayRef<Tensor> in) { return trainStep(m, opt, in); });
  std::vector<float> losses;
  auto [x, y] = batch(ctx, 0);
  for (int s = 0; s < 2; ++s)
    losses.push_back(*(*jit({x, y}))[0].item());
  EXPECT_EQ(jit.numPlans(), 1u); // the step is one program
  unsigned compiled = ctx.planCache().stats().compiled;
  size_t graph = ctx.graphSize(), realizations = ctx.realizations();
  for (int s = 0; s < 50; ++s) {
    auto out = jit({x, y});
    ASSERT_TRUE(!!out) << llvm::toString(out.takeError());
    losses.push_back(*(*out)[0].item());
  }
  EXPECT_EQ(ctx.planCache().stats().compiled, compiled);
  EXPECT_EQ(ctx.realizations(), realizations + 50);
  // Per replay: a buffer op (and a reshape) per value it rebinds, no more;
  // the collector keeps the graph from growing.
  EXPECT_LT(ctx.graphSize(), graph + 50 * 40);
  EXPECT_EQ(opt.steps(), 52);
  EXPECT_EQ(jit.calls(), 52u);
  EXPECT_LT(losses.back(), 0.5 * losses.front());
}

TEST_F(JitTest, ConstantsAreReadAsCapturedInputsAsGiven) {
  Tensor scale = Tensor::fromVector({2, 3}, ctx); // made outside: a constant
  Tensor acc = Tensor::zeros({2}, DType::F32, ctx);
  ASSERT_FALSE(!!Tensor::realizeAll({acc}));
  TinyJit jit(ctx, [&](llvm::ArrayRef<Tensor> in) -> llvm::Expected<std::vector<Tensor>> {
    if (auto e = acc.assign(acc + in[0] * scale))
      return std::move(e);
    if (auto e = acc.realize().takeError())
      return std::move(e);
    return std::vector<Tensor>{acc * 1, in[0] + 0};
  });
  std::vector<float> want = {0, 0};
  for (int s = 1; s <= 5; ++s) {
    Tensor x = Tensor::fromVector({float(s), float(-s)}, ctx);
    auto out = jit({x});
    ASSERT_TRUE(!!out) << llvm::toString(out.takeError());
    want[0] += 2 * s;
    want[1] += -3 * s;
    EXPECT_EQ(values(acc), want) << "call " << s;
    EXPECT_EQ(values((*out)[0]), want);
    EXPECT_EQ(values((*out)[1]), (std::vector<float>{float(s), float(-s)}));
  }
  EXPECT_EQ(jit.numPlans(), 2u);
}

TEST_F(JitTest, DataMadeInsideIsAnError) {
  Tensor acc = Tensor::zeros({2}, DType::F32, ctx);
  ASSERT_FALSE(!!Tensor::realizeAll({acc}));
  TinyJit jit(ctx, [&](llvm::ArrayRef<Tensor> in) -> llvm::Expected<std::vector<Tensor>> {
    Tensor noise = Tensor::fromVector({0.5f, 0.25f}, ctx); // new data every call
    if (auto e = acc.assign(acc + in[0] + noise))
      return std::move(e);
    if (auto e = acc.realize().takeError())
      return std::move(e);
    return std::vector<Tensor>{acc};
  });
  Tensor x = Tensor::ones({2}, DType::F32, ctx);
  ASSERT_TRUE(!!jit({x}));
  auto second = jit({x});
  ASSERT_FALSE(!!second);
  EXPECT_EQ(llvm::toString(second.takeError()),
            "TinyJit: the function reads data it made itself (a f32 buffer of shape (2,), "
            "e.g. from Tensor::fromVector or randn): a replay would reuse the values of the "
            "capture; make it outside the function and pass it as an input");
  EXPECT_FALSE(jit.captured());
}

TEST_F(JitTest, InputsOfAnotherShapeAreAnError) {
  TinyJit jit(ctx, [&](llvm::ArrayRef<Tensor> in) -> llvm::Expected<std::vector<Tensor>> {
    return std::vector<Tensor>{in[0].exp()};
  });
  Tensor x = Tensor::ones({2, 3}, DType::F32, ctx);
  for (int s = 0; s < 3; ++s)
    ASSERT_TRUE(!!jit({x}));
  EXPECT_TRUE(jit.captured());
  auto bad = jit({Tensor::ones({3, 2}, DType::F32, ctx)});
  ASSERT_FALSE(!!bad);
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "TinyJit: input 0 is <Tensor (3, 2) f32>, captured as <Tensor (2, 3) f32>");
  auto none = jit({});
  ASSERT_FALSE(!!none);
  EXPECT_EQ(llvm::toString(none.takeError()), "TinyJit: called with 0 inputs, captured with 1");
  // reset() forgets the capture: other shapes are fine again.
  jit.reset();
  auto ok = jit({Tensor::ones({3, 2}, DType::F32, ctx)});
  ASSERT_TRUE(!!ok) << llvm::toString(ok.takeError());
  EXPECT_EQ((*ok)[0].shape(), (Shape{3, 2}));
}

TEST_F(JitTest, StateIsReadAsItIsAtEachReplay) {
  // acc is state (the function rebinds it); the caller may change it
  // between calls, a replay reads its value then.
  Tensor acc = Tensor::zeros({2}, DType::F32, ctx);
  ASSERT_FALSE(!!Tensor::realizeAll({acc}));
  TinyJit jit(ctx, [&](llvm::ArrayRef<Tensor> in) -> llvm::Expected<std::vector<Tensor>> {
    if (auto e = acc.assign(acc * 2 + in[0]))
      return std::move(e);
    if (auto e = acc.realize().takeError())
      return std::move(e);
    return std::vector<Tensor>{acc};
  });
  Tensor one = Tensor::ones({2}, DType::F32, ctx);
  for (int s = 0; s < 3; ++s)
    ASSERT_TRUE(!!jit({one}));
  ASSERT_TRUE(jit.captured());
  EXPECT_EQ(values(acc), (std::vector<float>{7, 7}));
  ASSERT_FALSE(!!acc.assign(Tensor::fromVector({10, 20}, ctx))); // realized
  ASSERT_TRUE(!!jit({one}));
  EXPECT_EQ(values(acc), (std::vector<float>{21, 41}));
  ASSERT_FALSE(!!acc.assign(acc - 1)); // not realized: the replay realizes it
  auto out = jit({one});
  ASSERT_TRUE(!!out) << llvm::toString(out.takeError());
  EXPECT_EQ(values(acc), (std::vector<float>{41, 81}));
  EXPECT_EQ(values((*out)[0]), (std::vector<float>{41, 81}));
}

TEST_F(JitTest, NestedCaptureIsAnError) {
  TinyJit inner(ctx, [&](llvm::ArrayRef<Tensor> in) -> llvm::Expected<std::vector<Tensor>> {
    return std::vector<Tensor>{in[0] + 1};
  });
  TinyJit outer(ctx, [&](llvm::ArrayRef<Tensor> in) { return inner(in); });
  auto r = outer({Tensor::ones({2}, DType::F32, ctx)});
  ASSERT_FALSE(!!r);
  EXPECT_EQ(llvm::toString(r.takeError()),
            "TinyJit: a TinyJit's function calls a TinyJit (nested capture)");
}

TEST_F(JitTest, FunctionErrorsPassThroughAndDoNotCount) {
  bool fail = true;
  TinyJit jit(ctx, [&](llvm::ArrayRef<Tensor> in) -> llvm::Expected<std::vector<Tensor>> {
    if (fail)
      return llvm::createStringError("no step today");
    return std::vector<Tensor>{in[0] * 2};
  });
  Tensor x = Tensor::ones({2}, DType::F32, ctx);
  auto r = jit({x});
  ASSERT_FALSE(!!r);
  EXPECT_EQ(llvm::toString(r.takeError()), "no step today");
  EXPECT_EQ(jit.calls(), 0u);
  fail = false;
  for (int s = 0; s < 3; ++s)
    EXPECT_EQ(values((*jit({x}))[0]), (std::vector<float>{2, 2}));
  EXPECT_TRUE(jit.captured());
  // A bad input is an error before anything runs.
  auto bad = jit({Tensor::makeError("broken")});
  ASSERT_FALSE(!!bad);
  EXPECT_EQ(llvm::toString(bad.takeError()), "TinyJit: input 0: broken");
}

} // namespace
