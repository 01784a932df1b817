//===- MlpStep.cpp - the MLP training step, uop beside numpy -----*- C++ -*-===//
//
// One training step of the seed's examples/mnist_mlp.py: a 784-128-10 MLP
// (Linear, ReLU, Linear), cross entropy over a batch of 128, backward,
// AdamW; built with uop::Tensor / uop::nn and run through the plan cache
// (the first step compiles, the rest reuse its plan). The same step in
// numpy (bench/mlp_step_numpy.py, the backward pass by hand) runs in the
// same invocation from the same initial parameters and data, and the table
// has both, their ratio, both final losses and the host CPU. uop runs the
// step two ways: through a TinyJit (from the third call it replays the
// step's plan: no graph is built) and eagerly (graphs built every step).
//
//   uop-bench-mlp-step [--steps=N] [--warmup=N] [--numpy=SCRIPT|--no-numpy]
//                      [--profile] [--fuse-epilogue=false]
//
// Times are medians over the steps (steady on a shared machine); the CPU
// columns are the process's CPU time per step (all threads: on a loaded
// machine, what the step costs rather than how long it waited). --profile
// times the step program's kernels alone, splits the eager step into
// building the graphs (forward and backward) and the optimizer's step
// (building the updates, the plan lookup, binding, the run), and prints
// the plan.
//
//===----------------------------------------------------------------------===//

#include "Uop/Frontend/Jit.h"
#include "Uop/Frontend/NN.h"
#include "Uop/IR/UopTarget.h"

#include "Uop/Runtime/Executable.h"
#include "Uop/Runtime/Npy.h"
#include "Uop/Runtime/Plan.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sched.h>
#include <string>
#include <time.h>

using namespace uop;

/// The options uop-bench-mlp-step --help lists (LLVM's own stay usable, unlisted).
static llvm::cl::OptionCategory toolOptions("uop-bench-mlp-step options");
static llvm::cl::opt<int> steps(llvm::cl::cat(toolOptions), "steps", llvm::cl::desc("timed steps"),
                                llvm::cl::init(200));
static llvm::cl::opt<int> warmup(llvm::cl::cat(toolOptions), "warmup",
                                 llvm::cl::desc("untimed steps first (compile, capture)"),
                                 llvm::cl::init(5));
static llvm::cl::opt<std::string> numpyScript(llvm::cl::cat(toolOptions), "numpy",
                                              llvm::cl::desc("the numpy step's script"),
                                              llvm::cl::init(UOP_BENCH_DIR "/mlp_step_numpy.py"));
static llvm::cl::opt<bool> noNumpy(llvm::cl::cat(toolOptions), "no-numpy",
                                   llvm::cl::desc("run only uop"));
static llvm::cl::opt<bool> noEager(llvm::cl::cat(toolOptions), "no-eager",
                                   llvm::cl::desc("run uop only through the TinyJit"));
static llvm::cl::opt<bool> fuseEpilogue(
    llvm::cl::cat(toolOptions), "fuse-epilogue",
    llvm::cl::desc("uop: a GEMM's bias and ReLU in its kernel (default; =false: a kernel of "
                   "their own, reading the GEMM's output back)"),
    llvm::cl::init(true));
static llvm::cl::opt<bool> profile(llvm::cl::cat(toolOptions), "profile",
                                   llvm::cl::desc("split uop's step into its phases"));

static constexpr int64_t kIn = 784, kHidden = 128, kOut = 10, kBatch = 128, kPool = 1024;

namespace {
struct MLP : nn::Module {
  nn::Linear l1, l2;
  explicit MLP(TensorContext &ctx) : l1(kIn, kHidden, true, ctx), l2(kHidden, kOut, true, ctx) {
    registerModule("l1", l1);
    registerModule("l2", l2);
  }
  Tensor operator()(const Tensor &x) const { return l2(l1(x).relu()); }
};

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}
/// CPU time of `clock` (the process's: every thread; the thread's) in ms.
double cpuMs(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}
} // namespace

static std::string cpuModelName() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos)
        return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return "";
}

/// The median: steady against the other processes of a shared machine.
static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty()      ? 0
         : v.size() % 2 ? v[v.size() / 2]
                        : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

static int cpusAvailable() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    return 0;
  return CPU_COUNT(&set);
}

static int fail(const std::string &what, llvm::Error e) {
  llvm::errs() << "uop-bench-mlp-step: error: " << what << ": " << llvm::toString(std::move(e))
               << "\n";
  return 1;
}

namespace {
/// One way of running uop's step, timed.
struct UopRun {
  double ms = 0, cpuMs = 0, warmMs = 0, loss = 0;
  /// Per-step medians of the eager way's phases (wall / the main thread's CPU).
  double buildMs = 0, buildCpuMs = 0, stepMs = 0, stepCpuMs = 0;
  /// Per-step median of making the batch's tensors (the data loader's part).
  double batchMs = 0;
  unsigned compiledInTimedSteps = 0;
};
} // namespace

/// Trains `steps` steps after `warmup` on rows of (xs, ys), from parameters
/// seeded with 0: through a TinyJit when `jit`,
/// else building the graphs every step. `ctx` is the run's own context.
static llvm::Expected<UopRun> runUop(TensorContext &ctx, bool jit, const rt::HostBuffer &xs,
                                     const rt::HostBuffer &ys) {
  ctx.manualSeed(0);
  MLP model(ctx);
  nn::AdamW opt(model.parameters(), 1e-3);
  // Each element is written: no zero fill first (numpy's fancy indexing
  // does not fill either).
  auto batch = [&](int s) {
    rt::HostBuffer x = rt::HostBuffer::createUninitialized(DType::F32, {kBatch, kIn}).take();
    rt::HostBuffer y = rt::HostBuffer::createUninitialized(DType::I32, {kBatch}).take();
    for (int64_t r = 0; r < kBatch; ++r) {
      int64_t row = (s * kBatch + r) % kPool;
      std::copy_n(xs.as<float>() + row * kIn, kIn, x.as<float>() + r * kIn);
      y.as<int32_t>()[r] = ys.as<int32_t>()[row];
    }
    return std::make_pair(Tensor::fromBuffer(std::make_shared<rt::HostBuffer>(std::move(x)), ctx),
                          Tensor::fromBuffer(std::make_shared<rt::HostBuffer>(std::move(y)), ctx));
  };
  // The step as a function of its batch: what the TinyJit captures.
  std::vector<double> buildMs, buildCpuMs;
  auto train = [&](llvm::ArrayRef<Tensor> in) -> llvm::Expected<std::vector<Tensor>> {
    auto t0 = Clock::now();
    double m0 = cpuMs(CLOCK_THREAD_CPUTIME_ID);
    Tensor loss = model(in[0]).crossEntropy(in[1]);
    opt.zeroGrad();
    if (auto e = loss.backward(opt.params()))
      return std::move(e);
    buildMs.push_back(msSince(t0));
    buildCpuMs.push_back(cpuMs(CLOCK_THREAD_CPUTIME_ID) - m0);
    if (auto e = opt.step({loss}))
      return std::move(e);
    return std::vector<Tensor>{loss};
  };
  TinyJit jitted(ctx, train);
  std::vector<double> totalMs, cpuStepMs, threadMs, batchMs;
  Tensor loss;
  auto step = [&](int s) -> llvm::Error {
    auto t0 = Clock::now();
    double c0 = cpuMs(CLOCK_PROCESS_CPUTIME_ID), m0 = cpuMs(CLOCK_THREAD_CPUTIME_ID);
    auto [x, y] = batch(s);
    batchMs.push_back(msSince(t0));
    auto out = jit ? jitted({x, y}) : train({x, y});
    if (!out)
      return out.takeError();
    loss = (*out)[0];
    cpuStepMs.push_back(cpuMs(CLOCK_PROCESS_CPUTIME_ID) - c0);
    threadMs.push_back(cpuMs(CLOCK_THREAD_CPUTIME_ID) - m0);
    totalMs.push_back(msSince(t0));
    return llvm::Error::success();
  };
  UopRun r;
  auto tc = Clock::now();
  for (int s = 0; s < warmup; ++s)
    if (auto e = step(s))
      return llvm::createStringError("step " + std::to_string(s) + ": " +
                                     llvm::toString(std::move(e)));
  r.warmMs = msSince(tc);
  unsigned compiled = ctx.planCache().stats().compiled;
  for (auto *v : {&buildMs, &buildCpuMs, &totalMs, &cpuStepMs, &threadMs, &batchMs})
    v->clear();
  for (int s = warmup; s < warmup + steps; ++s)
    if (auto e = step(s))
      return llvm::createStringError("step " + std::to_string(s) + ": " +
                                     llvm::toString(std::move(e)));
  r.ms = median(totalMs);
  r.cpuMs = median(cpuStepMs);
  r.batchMs = median(batchMs);
  if (!jit) {
    // The phases: building the graphs, then the rest (the updates, the
    // plan lookup, binding, the run).
    std::vector<double> rest, restCpu;
    for (size_t i = 0; i < totalMs.size(); ++i) {
      rest.push_back(totalMs[i] - buildMs[i]);
      restCpu.push_back(threadMs[i] - buildCpuMs[i]);
    }
    r.buildMs = median(buildMs);
    r.buildCpuMs = median(buildCpuMs);
    r.stepMs = median(rest);
    r.stepCpuMs = median(restCpu);
  }
  auto lossValue = loss.item();
  if (!lossValue)
    return lossValue.takeError();
  r.loss = *lossValue;
  r.compiledInTimedSteps = ctx.planCache().stats().compiled - compiled;
  return r;
}

int main(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(toolOptions);
  llvm::cl::ParseCommandLineOptions(argc, argv, "the MLP training step: uop beside numpy\n");
  if (steps < 1 || warmup < 2) {
    llvm::errs() << "uop-bench-mlp-step: error: --steps must be >= 1 and --warmup >= 2 (a "
                    "TinyJit captures at the second call)\n";
    return 1;
  }
  // A pool of inputs in [0, 1) (as MNIST's pixels) and labels; step s
  // trains on rows s*B .. s*B+B-1 (mod the pool), as the numpy script does.
  Generator gen(1);
  rt::HostBuffer xs(DType::F32, {kPool, kIn}), ys(DType::I32, {kPool});
  for (int64_t i = 0; i < xs.numel(); ++i)
    xs.as<float>()[i] = static_cast<float>(gen.nextDouble());
  for (int64_t i = 0; i < kPool; ++i)
    ys.as<int32_t>()[i] = static_cast<int32_t>(gen.nextU64() % kOut);

  // uop through a TinyJit (its context stays: --profile reads its plan),
  // then eager; each from the same start.
  TensorOptions options;
  options.compile.fuseEpilogue = fuseEpilogue;
  TensorContext jitCtx(options), eagerCtx(options);
  llvm::SmallString<128> dir;
  if (!noNumpy) {
    // The numpy script reads the same start.
    if (auto ec = llvm::sys::fs::createUniqueDirectory("uop-bench-mlp", dir)) {
      llvm::errs() << "uop-bench-mlp-step: error: a temporary directory: " << ec.message() << "\n";
      return 1;
    }
    TensorContext initCtx;
    initCtx.manualSeed(0);
    MLP init(initCtx);
    const char *names[] = {"w1", "b1", "w2", "b2"};
    for (auto [i, p] : llvm::enumerate(init.parameters()))
      if (auto e = p.save((dir + "/" + names[i] + ".npy").str()))
        return fail("saving the parameters", std::move(e));
    auto r1 = rt::writeNpy((dir + "/x.npy").str(), xs),
         r2 = rt::writeNpy((dir + "/y.npy").str(), ys);
    if (!r1.ok() || !r2.ok()) {
      llvm::errs() << "uop-bench-mlp-step: error: writing the data\n";
      return 1;
    }
  }
  auto jitRun = runUop(jitCtx, /*jit=*/true, xs, ys);
  if (!jitRun)
    return fail("uop with a TinyJit", jitRun.takeError());
  auto eagerRun = noEager ? llvm::Expected<UopRun>(UopRun()) : runUop(eagerCtx, false, xs, ys);
  if (!eagerRun)
    return fail("uop eager", eagerRun.takeError());
  for (auto [name, r] : {std::pair{"TinyJit", &*jitRun}, std::pair{"eager", &*eagerRun}})
    if (r->compiledInTimedSteps)
      llvm::errs() << "uop-bench-mlp-step: warning: the timed steps (" << name << ") compiled "
                   << r->compiledInTimedSteps << " plan(s)\n";

  double npMs = -1, npCpuMs = -1, npLoss = 0;
  std::string npCore = "?";
  if (!noNumpy) {
    std::string cmd = "/usr/bin/python3 '" + numpyScript + "' '" + dir.str().str() + "' " +
                      std::to_string(steps) + " " + std::to_string(warmup);
    FILE *p = popen(cmd.c_str(), "r");
    char line[256];
    while (p && fgets(line, sizeof line, p)) {
      std::sscanf(line, "ms_per_step %lf", &npMs);
      std::sscanf(line, "cpu_ms_per_step %lf", &npCpuMs);
      std::sscanf(line, "loss %lf", &npLoss);
      if (llvm::StringRef(line).starts_with("openblas "))
        npCore = llvm::StringRef(line).drop_front(9).rtrim().str();
    }
    int rc = p ? pclose(p) : -1;
    llvm::sys::fs::remove_directories(dir);
    if (rc != 0 || npMs < 0) {
      llvm::errs() << "uop-bench-mlp-step: error: the numpy step failed (" << cmd << ")\n";
      return 1;
    }
  }

  llvm::outs() << "MLP training step 784-128-10, batch " << kBatch << ", AdamW; " << steps
               << " steps after " << warmup
               << " (the warm-up compiles: " << llvm::format("%.0f", eagerRun->warmMs)
               << " ms eager, " << llvm::format("%.0f", jitRun->warmMs)
               << " ms with the TinyJit)\n";
  mlir::MLIRContext targetContext;
  std::string load;
  if (std::ifstream f("/proc/loadavg"); f)
    std::getline(f, load);
  llvm::outs() << "host: " << cpuModelName() << ", " << cpusAvailable() << " CPUs (load "
               << llvm::StringRef(load).take_until([](char c) { return c == '/'; }).rsplit(' ').first
               << "); uop target: "
               << mlir::uop::describeTarget(mlir::uop::detectHostTarget(&targetContext)) << "\n";
  if (!noNumpy)
    llvm::outs() << "numpy's OpenBLAS core: " << npCore << "\n";
  llvm::outs() << "\n";
  auto ratio = [&](double v) {
    return noNumpy ? std::string("-") : llvm::formatv("{0:F2}", v / npMs).str();
  };
  llvm::outs() << "| step | ms/step | vs numpy | CPU ms/step (all threads) | loss |\n"
               << "|---|---|---|---|---|\n";
  for (auto [name, r] : {std::pair{"uop, TinyJit (replayed)", &*jitRun},
                         std::pair{"uop, eager (graphs built each step)", &*eagerRun}})
    if (r->ms > 0)
      llvm::outs() << "| " << name << llvm::format(" | %.3f | ", r->ms) << ratio(r->ms)
                   << llvm::format(" | %.3f | %.5f |\n", r->cpuMs, r->loss);
  if (!noNumpy)
    llvm::outs() << llvm::format("| numpy | %.3f | 1.00 | %.3f | %.5f |\n", npMs, npCpuMs, npLoss);
  if (profile) {
    // The step's program (the TinyJit's replay runs it), its kernels alone:
    // the same executable on buffers of its arguments' sizes.
    rt::Executable *exe = jitCtx.lastExecutable();
    const rt::HostPlan &plan = exe->plan();
    std::vector<rt::HostBuffer> args;
    std::vector<void *> ptrs;
    for (const rt::PlanArg &a : plan.args)
      if (a.kind != rt::PlanArg::Temp) {
        args.emplace_back(a.dtype, std::vector<int64_t>{a.numel});
        ptrs.push_back(args.back().data());
      }
    auto times = exe->bench(ptrs, std::max(10, steps / 4));
    if (!times.ok()) {
      llvm::errs() << "uop-bench-mlp-step: error: timing the kernels: " << times.error() << "\n";
      return 1;
    }
    double kernelMs = (*times)[times->size() / 2] * 1e3;
    llvm::outs() << "\nthe step's kernels alone take " << llvm::format("%.3f", kernelMs) << " ms ("
                 << llvm::format("%.1f", plan.flops() / (kernelMs * 1e-3) / 1e9)
                 << " GFLOP/s), making each step's batch " << llvm::format("%.3f", jitRun->batchMs)
                 << " ms; eager, medians per step (wall / the main thread's CPU): "
                 << llvm::format("%.3f / %.3f", eagerRun->buildMs, eagerRun->buildCpuMs)
                 << " ms building the forward and backward graphs, "
                 << llvm::format("%.3f / %.3f", eagerRun->stepMs, eagerRun->stepCpuMs)
                 << " ms in AdamW::step (the update graphs, the plan lookup, binding, the run)\n";
    // Where the replayed step's time goes: each kernel alone (its best of
    // the runs, one launch at a time through its own entry point), and the
    // rest of the replay (binding, the pool, the launches' fork/joins).
    auto prof = exe->profile(ptrs, std::max(10, steps / 4));
    if (!prof.ok()) {
      llvm::errs() << "uop-bench-mlp-step: error: profiling the kernels: " << prof.error() << "\n";
      return 1;
    }
    std::vector<rt::KernelProfile> byTime = *prof;
    double sumKernels = 0;
    for (const rt::KernelProfile &k : byTime)
      sumKernels += k.seconds * 1e3;
    std::sort(byTime.begin(), byTime.end(),
              [](const auto &a, const auto &b) { return a.seconds > b.seconds; });
    llvm::outs() << "the kernels one at a time (best of runs): "
                 << llvm::format("%.3f", sumKernels) << " ms in all; the replayed step spends "
                 << llvm::format("%.3f", jitRun->ms - kernelMs - jitRun->batchMs)
                 << " ms outside the program's run (the TinyJit's binding and pool, "
                    "the batch excluded); the kernels, slowest first:\n";
    for (size_t i = 0; i < byTime.size(); ++i)
      llvm::outs() << "  " << byTime[i].name << ": "
                   << llvm::format("%.3f ms, %.1f GFLOP/s, ", byTime[i].seconds * 1e3,
                                   byTime[i].flops / std::max(byTime[i].seconds, 1e-12) / 1e9)
                   << byTime[i].opts << "\n";
    llvm::outs() << "the step's program: " << plan.kernels.size() << " kernels, "
                 << plan.numLaunches << " launches, " << llvm::format("%.1f", plan.flops() / 1e6)
                 << " MFLOP; the largest:\n";
    std::vector<const rt::PlanKernel *> ks;
    for (const rt::PlanKernel &k : plan.kernels)
      ks.push_back(&k);
    std::sort(ks.begin(), ks.end(), [](auto *a, auto *b) { return a->flops > b->flops; });
    for (size_t i = 0; i < std::min<size_t>(4, ks.size()); ++i)
      llvm::outs() << "  " << ks[i]->name << ": " << llvm::format("%.1f", ks[i]->flops / 1e6)
                   << " MFLOP, " << ks[i]->opts << "\n";
    llvm::outs() << "eager: graph ops " << eagerCtx.graphSize() << ", plans compiled "
                 << eagerCtx.planCache().stats().compiled << ", realizations "
                 << eagerCtx.realizations() << " (found by structure: " << eagerCtx.planHits()
                 << ")\n";
  }
  return 0;
}
