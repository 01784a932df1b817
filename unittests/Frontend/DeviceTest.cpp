//===- DeviceTest.cpp - device contexts and exported training steps -*- C++ -*-===//
//
// A device context keeps realized values in its device's memory and copies
// only where data crosses (fromVector's data the first time a plan reads
// it; numpy(), item()): on an emulate context, whose device is host memory
// standing in for the GPU's, the same code runs without a GPU, and its
// values are the cpu context's (the GPU mapping reassociates sums: a
// tolerance). Autodiff, nn and the TinyJit work unchanged on it. A cuda
// context without a GPU fails with one line. TinyJit::exportStep writes a
// step bundle whose replay by the runtime (StepRunner, uop-runner's) is the
// in-process TinyJit's bit for bit on the CPU; the GpuDeviceTest cases run
// a cuda context where there is a GPU and skip elsewhere.
//
//===----------------------------------------------------------------------===//

#include "Uop/Frontend/Jit.h"
#include "Uop/Frontend/NN.h"
#include "Uop/Runtime/Step.h"

#include "FrontendTestUtil.h"
#include "GPTModel.h"

using namespace uop;
using namespace uop::test;

namespace {

TensorOptions optionsFor(mlir::uop::CompileTarget target) {
  TensorOptions o;
  o.compile.target = target;
  return o;
}

/// A 12-8-3 MLP.
struct Model : nn::Module {
  nn::Linear l1, l2;
  explicit Model(TensorContext &ctx) : l1(12, 8, true, ctx), l2(8, 3, true, ctx) {
    registerModule("l1", l1);
    registerModule("l2", l2);
  }
  Tensor operator()(const Tensor &x) const { return l2(l1(x).relu()); }
};

/// Batch `s` of (16, 12) inputs and their labels, as host data.
std::pair<std::vector<float>, std::vector<int32_t>> batchData(int s) {
  std::vector<float> x(16 * 12);
  std::vector<int32_t> y(16);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = std::sin(0.11f * float(i + 1) * float(s + 1));
  for (int i = 0; i < 16; ++i)
    y[i] = (i * 7 + s) % 3;
  return {x, y};
}

std::pair<Tensor, Tensor> batch(TensorContext &ctx, int s) {
  auto [x, y] = batchData(s);
  return {Tensor::fromVector(x, {16, 12}, ctx), Tensor::fromInts(y, {16}, ctx)};
}

/// Losses of `steps` AdamW steps through a TinyJit in `ctx` (seed 5).
std::vector<float> train(TensorContext &ctx, int steps, std::vector<float> *weights = nullptr) {
  ctx.manualSeed(5);
  Model m(ctx);
  nn::AdamW opt(m.parameters(), 0.01);
  TinyJit jit(ctx, [&](llvm::ArrayRef<Tensor> in) -> llvm::Expected<std::vector<Tensor>> {
    Tensor loss = m(in[0]).crossEntropy(in[1]);
    if (auto e = opt.minimize(loss))
      return std::move(e);
    return std::vector<Tensor>{loss};
  });
  std::vector<float> losses;
  for (int s = 0; s < steps; ++s) {
    auto [x, y] = batch(ctx, s);
    auto out = jit({x, y});
    if (!out) {
      ADD_FAILURE() << llvm::toString(out.takeError());
      return losses;
    }
    auto l = (*out)[0].item();
    if (!l) {
      ADD_FAILURE() << llvm::toString(l.takeError());
      return losses;
    }
    losses.push_back(float(*l));
  }
  if (weights)
    *weights = *m.l1.weight.toVector();
  return losses;
}

/// Losses of `steps` AdamW steps of a tiny GPT (the gpt example's model:
/// embeddings, a causal attention block, layernorms, GELU) through a TinyJit
/// in `ctx`, on windows of a repeating sequence.
std::vector<float> trainGpt(TensorContext &ctx, int steps) {
  const int64_t V = 11, T = 8, B = 4;
  ctx.manualSeed(2);
  examples::GPT gpt(V, T, 16, 2, 1, examples::Gelu::Clamped, ctx);
  nn::AdamW opt(gpt.parameters(), 3e-3, 0.9, 0.999, 1e-8, 0.01);
  TinyJit jit(ctx, [&](llvm::ArrayRef<Tensor> in) -> llvm::Expected<std::vector<Tensor>> {
    Tensor loss = gpt(in[0]).reshape({-1, V}).crossEntropy(in[1]);
    if (auto e = opt.minimize(loss))
      return std::move(e);
    return std::vector<Tensor>{loss};
  });
  std::vector<float> losses;
  for (int s = 0; s < steps; ++s) {
    std::vector<int32_t> x(B * T), y(B * T);
    for (int64_t i = 0; i < B * T; ++i) {
      x[i] = int32_t((i / T * 3 + i % T + s) % V);
      y[i] = int32_t((x[i] + 1) % V);
    }
    auto out = jit({Tensor::fromInts(x, {B, T}, ctx), Tensor::fromInts(y, {B * T}, ctx)});
    if (!out) {
      ADD_FAILURE() << llvm::toString(out.takeError());
      return losses;
    }
    losses.push_back(float(*(*out)[0].item()));
  }
  return losses;
}

class DeviceTest : public FrontendTest {};

TEST_F(DeviceTest, EmulateContextKeepsValuesOnItsDevice) {
  TensorContext emu(optionsFor(mlir::uop::CompileTarget::Emulate));
  EXPECT_EQ(emu.deviceStats(), nullptr); // no device before it is needed
  EXPECT_EQ(emu.deviceName(), "emulate, host");
  EXPECT_EQ(ctx.deviceName(), "cpu");
  EXPECT_EQ(ctx.deviceStats(), nullptr);
  Tensor x = Tensor::fromVector({1, -2, 3, -4, 5, -6}, {2, 3}, emu);
  Tensor y = (x * 2 + 1).relu();
  ASSERT_TRUE(!!y.realize());
  const rt::DeviceStats *st = emu.deviceStats();
  ASSERT_NE(st, nullptr);
  // x went to the device once; y stays there.
  EXPECT_EQ(st->copiesIn, 1u);
  EXPECT_EQ(st->bytesIn, 24u);
  EXPECT_EQ(st->copiesOut, 0u);
  Tensor z = y.sum(1);
  Tensor w = (y * x).sum();
  ASSERT_FALSE(Tensor::realizeAll({z, w}));
  EXPECT_EQ(st->copiesIn, 1u); // x is on the device already
  EXPECT_EQ(st->copiesOut, 0u);
  EXPECT_EQ(values(z), (std::vector<float>{10, 11}));
  EXPECT_EQ(st->copiesOut, 1u);
  auto item = w.item();
  ASSERT_TRUE(!!item);
  EXPECT_EQ(*item, 3.0 + 21 + 55);
  EXPECT_EQ(st->copiesOut, 2u);
  // buffer() keeps a host copy: a second view copies nothing.
  auto b1 = y.buffer();
  ASSERT_TRUE(!!b1);
  auto b2 = y.buffer();
  ASSERT_TRUE(!!b2);
  EXPECT_EQ(b1->get(), b2->get());
  EXPECT_EQ(st->copiesOut, 3u);
  EXPECT_EQ((*b1)->as<float>()[2], 7.0f);
}

TEST_F(DeviceTest, EmulateContextGivesTheCpuValues) {
  TensorContext emu(optionsFor(mlir::uop::CompileTarget::Emulate));
  for (TensorContext *c : {&ctx, &emu})
    c->manualSeed(11);
  Tensor a = Tensor::randn({33, 47}, ctx), b = Tensor::randn({47, 29}, ctx);
  Tensor ea = Tensor::randn({33, 47}, emu), eb = Tensor::randn({47, 29}, emu);
  auto fn = [](const Tensor &p, const Tensor &q) {
    return (p.matmul(q).softmax(-1) * 3 + p.mean(1, true).exp()).logsumexp(-1);
  };
  expectNear(values(fn(ea, eb)), values(fn(a, b)), 1e-5);
  // Autodiff: the gradients of a loss.
  Tensor loss = fn(a, b).sum(), eloss = fn(ea, eb).sum();
  ASSERT_FALSE(loss.backward({a, b}));
  ASSERT_FALSE(eloss.backward({ea, eb}));
  expectNear(values(*ea.grad()), values(*a.grad()), 1e-4);
  expectNear(values(*eb.grad()), values(*b.grad()), 1e-4);
}

TEST_F(DeviceTest, TinyJitTrainsOnAnEmulateContext) {
  TensorContext emu(optionsFor(mlir::uop::CompileTarget::Emulate));
  std::vector<float> cpuW, emuW;
  std::vector<float> cpu = train(ctx, 8, &cpuW), dev = train(emu, 8, &emuW);
  ASSERT_EQ(dev.size(), 8u);
  expectNear(dev, cpu, 1e-5);
  expectNear(emuW, cpuW, 1e-5);
  EXPECT_LT(dev.back(), dev.front());
  // A replayed step copies its batch in and the loss out, nothing else.
  const rt::DeviceStats before = *emu.deviceStats();
  ctx.manualSeed(5);
  Model m(emu);
  nn::AdamW opt(m.parameters(), 0.01);
  TinyJit jit(emu, [&](llvm::ArrayRef<Tensor> in) -> llvm::Expected<std::vector<Tensor>> {
    Tensor loss = m(in[0]).crossEntropy(in[1]);
    if (auto e = opt.minimize(loss))
      return std::move(e);
    return std::vector<Tensor>{loss};
  });
  for (int s = 0; s < 3; ++s) {
    auto [x, y] = batch(emu, s);
    ASSERT_TRUE(!!jit({x, y}));
  }
  const rt::DeviceStats mid = *emu.deviceStats();
  auto [x, y] = batch(emu, 3);
  auto out = jit({x, y});
  ASSERT_TRUE(!!out);
  ASSERT_TRUE(!!(*out)[0].item());
  const rt::DeviceStats after = *emu.deviceStats();
  EXPECT_EQ(after.copiesIn - mid.copiesIn, 2u); // x and y
  EXPECT_EQ(after.copiesOut - mid.copiesOut, 1u); // the loss
  EXPECT_EQ(after.copies, mid.copies);
  // The device pool serves a replay: no new allocation.
  EXPECT_LE(after.allocations - mid.allocations, 2u); // at most x's and y's arrays
  (void)before;
}

TEST_F(DeviceTest, GptTrainsOnAnEmulateContext) {
  TensorContext emu(optionsFor(mlir::uop::CompileTarget::Emulate));
  std::vector<float> cpu = trainGpt(ctx, 4), dev = trainGpt(emu, 4);
  ASSERT_EQ(dev.size(), 4u);
  expectNear(dev, cpu, 1e-4);
}

TEST_F(DeviceTest, CudaContextWithoutAGpu) {
  rt::test::ScopedEnv noGpu("UOP_LIBCUDA", "/nonexistent/libcuda.so.1");
  auto created = TensorContext::create(optionsFor(mlir::uop::CompileTarget::CUDA));
  ASSERT_FALSE(!!created);
  std::string msg = llvm::toString(created.takeError());
  EXPECT_EQ(msg.rfind("no CUDA device: /nonexistent/libcuda.so.1 not found (", 0), 0u) << msg;
  // A context made anyway: the first realize says the same, once.
  TensorContext gpu(optionsFor(mlir::uop::CompileTarget::CUDA));
  Tensor t = Tensor::fromVector({1, 2, 3}, gpu) * 2;
  auto r = t.realize();
  ASSERT_FALSE(!!r);
  EXPECT_EQ(llvm::toString(r.takeError()), msg);
  EXPECT_EQ(gpu.deviceName(), msg);
  // Creation needs no device; the options are checked.
  TensorOptions bad = optionsFor(mlir::uop::CompileTarget::CUDA);
  bad.compile.searchExport = "candidates";
  auto refused = TensorContext::create(bad);
  ASSERT_FALSE(!!refused);
  EXPECT_NE(llvm::toString(refused.takeError()).find("--search-export is for the GPU search"),
            std::string::npos);
}

/// The step of `train`, captured after two calls, exported for `options`;
/// then `more` more steps in process (their losses and the final l1 weight
/// in `losses` and `weight`).
void captureAndExport(TensorContext &ctx, const std::string &path,
                      const mlir::uop::CompileOptions &options, int more,
                      std::vector<float> &losses, std::vector<float> &weight) {
  ctx.manualSeed(5);
  Model m(ctx);
  nn::AdamW opt(m.parameters(), 0.01);
  TinyJit jit(ctx, [&](llvm::ArrayRef<Tensor> in) -> llvm::Expected<std::vector<Tensor>> {
    Tensor loss = m(in[0]).crossEntropy(in[1]);
    if (auto e = opt.minimize(loss))
      return std::move(e);
    return std::vector<Tensor>{loss};
  });
  EXPECT_NE(llvm::toString(jit.exportStep(path, options)).find("nothing is captured yet"),
            std::string::npos);
  for (int s = 0; s < 2; ++s) {
    auto [x, y] = batch(ctx, s);
    ASSERT_TRUE(!!jit({x, y}));
  }
  ASSERT_FALSE(jit.exportStep(path, options, opt.namedState(m)));
  for (int s = 2; s < 2 + more; ++s) {
    auto [x, y] = batch(ctx, s);
    auto out = jit({x, y});
    ASSERT_TRUE(!!out);
    losses.push_back(float(*(*out)[0].item()));
  }
  weight = *m.l1.weight.toVector();
}

/// The batches of steps 2 .. 2 + n - 1 as the runner takes them.
std::pair<rt::HostBuffer, rt::HostBuffer> runnerBatches(int n) {
  rt::HostBuffer x(DType::F32, {n, 16, 12}), y(DType::I32, {n, 16});
  for (int s = 0; s < n; ++s) {
    auto [xs, ys] = batchData(s + 2);
    std::copy(xs.begin(), xs.end(), x.as<float>() + s * 16 * 12);
    std::copy(ys.begin(), ys.end(), y.as<int32_t>() + s * 16);
  }
  return {x, y};
}

TEST_F(DeviceTest, ExportedStepReplaysBitForBitOnTheCpu) {
  std::string path = dir.file("mlp.uopx");
  std::vector<float> losses, weight;
  captureAndExport(ctx, path, ctx.options().compile, 6, losses, weight);
  rt::Result<rt::StepBundle> bundle = rt::readStepBundle(path);
  ASSERT_TRUE(bundle.ok()) << bundle.error();
  const rt::StepProgram &step = bundle->step;
  EXPECT_EQ(bundle->target, rt::Backend::CPU);
  ASSERT_EQ(step.inputs.size(), 2u);
  EXPECT_EQ(step.inputs[1].dtype, DType::I32);
  // The state by name: parameters, AdamW's moments and step count.
  std::vector<std::string> names;
  for (const rt::StepTensor &t : step.tensors)
    if (t.state)
      names.push_back(t.name);
  for (const char *want : {"l1.weight", "l2.bias", "adamw.m.l1.weight", "adamw.v.l2.bias",
                           "adamw.t"})
    EXPECT_NE(llvm::find(names, want), names.end()) << want;
  EXPECT_EQ(names.size(), 13u);
  rt::Result<std::unique_ptr<rt::StepRunner>> runner = rt::StepRunner::load(*bundle, path);
  ASSERT_TRUE(runner.ok()) << runner.error();
  auto [x, y] = runnerBatches(6);
  ASSERT_TRUE((*runner)->setData(0, x).ok());
  ASSERT_TRUE((*runner)->setData(1, y).ok());
  std::vector<float> replayed;
  ASSERT_TRUE((*runner)
                  ->run(6, 2, 0,
                        [&](const rt::StepReport &r) {
                          for (double v : r.values)
                            replayed.push_back(float(v));
                          return rt::Result<bool>(true);
                        })
                  .ok());
  EXPECT_EQ(replayed, losses); // bit for bit
  size_t w = llvm::find(names, "l1.weight") - names.begin();
  for (size_t k = 0; k < step.tensors.size(); ++k)
    if (step.tensors[k].name == "l1.weight")
      w = k;
  rt::Result<rt::HostBuffer> got = (*runner)->tensor(w);
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_EQ(std::vector<float>(got->as<float>(), got->as<float>() + got->numel()), weight);
}

TEST_F(DeviceTest, ExportedStepForCudaNeedsNoGpuToWrite) {
  std::string path = dir.file("mlp-cuda.uopx");
  std::vector<float> losses, weight;
  mlir::uop::CompileOptions cuda;
  cuda.target = mlir::uop::CompileTarget::CUDA;
  captureAndExport(ctx, path, cuda, 1, losses, weight);
  rt::Result<rt::StepBundle> bundle = rt::readStepBundle(path);
  ASSERT_TRUE(bundle.ok()) << bundle.error();
  EXPECT_EQ(bundle->target, rt::Backend::CUDA);
  EXPECT_EQ(bundle->arch, "sm_90");
  for (const auto &prog : bundle->programs)
    for (const rt::PlanKernel &k : prog.plan.kernels)
      EXPECT_NE(prog.code.find(".entry " + k.name), std::string::npos) << k.name;
  rt::test::ScopedEnv noGpu("UOP_LIBCUDA", "/nonexistent/libcuda.so.1");
  auto runner = rt::StepRunner::load(*bundle, path);
  ASSERT_FALSE(runner.ok());
  EXPECT_EQ(runner.error().rfind("no CUDA device: ", 0), 0u) << runner.error();
}

//===----------------------------------------------------------------------===//
// On a GPU (skipped elsewhere)
//===----------------------------------------------------------------------===//

#define REQUIRE_GPU()                                                                              \
  if (auto dev = rt::Device::cuda(); !dev.ok())                                                    \
  GTEST_SKIP() << dev.error()

class GpuDeviceTest : public FrontendTest {};

TEST_F(GpuDeviceTest, CudaContextGivesTheCpuValues) {
  REQUIRE_GPU();
  TensorContext gpu(optionsFor(mlir::uop::CompileTarget::CUDA));
  std::vector<float> cpuW, gpuW;
  std::vector<float> cpu = train(ctx, 8, &cpuW), dev = train(gpu, 8, &gpuW);
  expectNear(dev, cpu, 1e-4);
  expectNear(gpuW, cpuW, 1e-4);
  EXPECT_EQ(gpu.deviceName().rfind("cuda, ", 0), 0u);
  const rt::DeviceStats *st = gpu.deviceStats();
  ASSERT_NE(st, nullptr);
  std::printf("MLP on %s: %llu copies in (%llu bytes), %llu out, %llu device allocations\n",
              gpu.deviceName().c_str(), (unsigned long long)st->copiesIn,
              (unsigned long long)st->bytesIn, (unsigned long long)st->copiesOut,
              (unsigned long long)st->allocations);
}

TEST_F(GpuDeviceTest, GptTrainsLikeTheCpu) {
  REQUIRE_GPU();
  TensorContext gpu(optionsFor(mlir::uop::CompileTarget::CUDA));
  std::vector<float> cpu = trainGpt(ctx, 6), dev = trainGpt(gpu, 6);
  ASSERT_EQ(dev.size(), 6u);
  expectNear(dev, cpu, 1e-4);
  std::printf("tiny GPT on %s: loss %.4f -> %.4f (cpu %.4f -> %.4f)\n", gpu.deviceName().c_str(),
              dev.front(), dev.back(), cpu.front(), cpu.back());
}

TEST_F(GpuDeviceTest, ExportedStepReplaysAsACudaGraph) {
  REQUIRE_GPU();
  std::string path = dir.file("mlp-cuda.uopx");
  std::vector<float> losses, weight;
  mlir::uop::CompileOptions cuda;
  cuda.target = mlir::uop::CompileTarget::CUDA;
  captureAndExport(ctx, path, cuda, 6, losses, weight);
  rt::Result<rt::StepBundle> bundle = rt::readStepBundle(path);
  ASSERT_TRUE(bundle.ok()) << bundle.error();
  auto runner = rt::StepRunner::load(*bundle, path);
  ASSERT_TRUE(runner.ok()) << runner.error();
  auto [x, y] = runnerBatches(6);
  ASSERT_TRUE((*runner)->setData(0, x).ok());
  ASSERT_TRUE((*runner)->setData(1, y).ok());
  std::vector<float> replayed;
  ASSERT_TRUE((*runner)
                  ->run(6, 3, 0,
                        [&](const rt::StepReport &r) {
                          for (double v : r.values)
                            replayed.push_back(float(v));
                          return rt::Result<bool>(true);
                        })
                  .ok());
  expectNear(replayed, losses, 1e-4);
  std::printf("%s\n", (*runner)->description().c_str());
}

} // namespace
