//===- uop-runner.cpp - run a compiled uop program (.uopx) ------*- C++ -*-===//
//
//   uop-runner PROGRAM.uopx [--input SLOT=FILE.npy]... [--random-inputs[=SEED]]
//              [--output FILE.npy | SLOT=FILE.npy]... [--print] [--print-plan]
//              [--bench=N] [--profile]
//   uop-runner STEP.uopx --steps=N [--data INPUT=FILE.npy]... [--state=DIR]
//              [--save-state=DIR] [--every=K] [--loss=K] [--csv=FILE]
//              [--output K=FILE.npy]... [--no-graph] [--print-plan]
//
// uop-run without the compiler: it loads a bundle (Bundle.h) that holds a
// compiled program (a CPU shared library, or the PTX of CUDA kernels) and its
// host plan, binds buffers to the plan's arguments, runs it and saves or
// prints what it computed. Flags, output and error messages are uop-run's.
// It links only the runtime (no LLVM, no MLIR), so it builds with
// -DUOP_RUNTIME_ONLY=ON on a GPU host. A CUDA bundle on a machine without a
// GPU fails with "no CUDA device: ...", exit status 1.
//
// With --steps, it trains: the bundle is a captured training step (a step
// bundle, include/Uop/Runtime/Step.h, written by TinyJit::exportStep), which
// it replays N times from the bundle's state (or --state=DIR's .npy files),
// step s taking batch s mod B of each input's --data file (B batches of the
// input's shape), printing the loss (output --loss, 0 by default) and
// ms/step as the examples do, and writing the final state to --save-state
// (one NAME.npy per state tensor, each replaced atomically). On CUDA each
// step is one CUDA graph launch (--no-graph launches the kernels one by one).
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/File.h"
#include "Uop/Runtime/Runtime.h"

#include <cerrno>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <sys/stat.h>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rt = ::uop::rt;

namespace {

[[noreturn]] void fail(const std::string &msg) {
  if (rt::isLocatedError(msg)) // a failed run-time check, at the program's op
    std::fprintf(stderr, "%s\n", msg.c_str());
  else
    std::fprintf(stderr, "uop-runner: error: %s\n", msg.c_str());
  std::exit(1);
}

const char *kUsage =
    "OVERVIEW: uop-runner: run a compiled uop program (a .uopx bundle)\n"
    "\n"
    "USAGE: uop-runner <program.uopx> [options]\n"
    "\n"
    "OPTIONS:\n"
    "  --bench=<N>                Time N runs; print the median and GFLOP/s\n"
    "  --input=<SLOT=FILE.npy>    The contents of a buffer slot\n"
    "  --memory-budget=<SIZE>     The most memory all buffers may take together (512M, 8G; "
    "default $UOP_MEMORY_BUDGET or the physical memory)\n"
    "  --output=<FILE|SLOT=FILE>  FILE.npy: save the next value; SLOT=FILE.npy: save a buffer "
    "after the run\n"
    "  --print                    Print the values (or the buffers written)\n"
    "  --print-plan               Print the plan: buffers, and each kernel with its launches, "
    "work and opts\n"
    "  --profile                  After the run, print one line per kernel: launches, time, "
    "GFLOP/s, GB/s and its opts (CPU)\n"
    "  --random-inputs[=<SEED>]   Fill buffers without --input with random data (optional "
    "seed, default 0)\n"
    "\n"
    "TRAINING (a step bundle):\n"
    "  --steps=<N>                Replay the training step N times\n"
    "  --data=<INPUT=FILE.npy>    Batches of a step input: B batches of its shape; step s takes "
    "batch s mod B\n"
    "  --state=<DIR>              Start from DIR/NAME.npy for every state tensor (default: the "
    "bundle's)\n"
    "  --save-state=<DIR>         Write the final state as DIR/NAME.npy (each atomically)\n"
    "  --every=<K>                A progress line every K steps (default N/10)\n"
    "  --loss=<K>                 The output printed as the loss (default 0)\n"
    "  --csv=<FILE>               step,loss,ms of every step\n"
    "  --output=<K=FILE.npy>      Save output K of the last step\n"
    "  --no-graph                 CUDA: launch the kernels one by one, not as a CUDA graph\n"
    "  --profile                  After training, each kernel of the step alone (best of 3; "
    "CUDA: events), slowest first\n";

struct Options {
  std::string program;
  std::vector<std::string> inputs, outputs;
  std::optional<std::string> randomInputs; ///< set: given, maybe with a seed
  bool print = false, printPlan = false, profile = false;
  uint64_t bench = 0;
  // Training.
  std::optional<uint64_t> steps;
  std::vector<std::string> data;
  std::string state, saveState, csv;
  uint64_t every = 0, loss = 0;
  bool noGraph = false;
};

/// The command line, as llvm::cl reads uop-run's: "-flag" or "--flag",
/// values as "--flag=V" or "--flag V" (--random-inputs only with '=').
Options parseArgs(int argc, char **argv) {
  Options o;
  bool positionalOnly = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (positionalOnly || arg.size() < 2 || arg[0] != '-') {
      if (!o.program.empty())
        fail("too many positional arguments: '" + o.program + "' and '" + arg + "' (one program)");
      o.program = arg;
      continue;
    }
    if (arg == "--") {
      positionalOnly = true;
      continue;
    }
    std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
    size_t eq = body.find('=');
    std::string name = body.substr(0, eq);
    std::optional<std::string> value;
    if (eq != std::string::npos)
      value = body.substr(eq + 1);
    auto needValue = [&]() -> std::string {
      if (value)
        return *value;
      if (i + 1 >= argc)
        fail("--" + name + " needs a value");
      return argv[++i];
    };
    auto noValue = [&]() {
      if (value)
        fail("--" + name + " takes no value, got '" + arg + "'");
    };
    if (name == "input") {
      o.inputs.push_back(needValue());
    } else if (name == "output") {
      o.outputs.push_back(needValue());
    } else if (name == "random-inputs") {
      o.randomInputs = value.value_or("");
    } else if (name == "memory-budget") {
      std::string v = needValue();
      if (rt::Result<bool> ok = rt::setMemoryBudget(v); !ok)
        fail(ok.error());
    } else if (name == "print") {
      noValue();
      o.print = true;
    } else if (name == "print-plan") {
      noValue();
      o.printPlan = true;
    } else if (name == "profile") {
      noValue();
      o.profile = true;
    } else if (name == "bench") {
      std::string v = needValue();
      std::optional<uint64_t> n = rt::parseUnsigned(v);
      if (!n)
        fail("--bench expects a number of runs, got '" + v + "'");
      o.bench = *n;
    } else if (name == "steps" || name == "every" || name == "loss") {
      std::string v = needValue();
      std::optional<uint64_t> n = rt::parseUnsigned(v);
      if (!n || (name == "steps" && *n == 0) || *n > (uint64_t(1) << 40))
        fail("--" + name + " expects a " + (name == "steps" ? "positive " : "") + "number, got '" +
             v + "'");
      if (name == "steps")
        o.steps = *n;
      else
        (name == "every" ? o.every : o.loss) = *n;
    } else if (name == "data") {
      o.data.push_back(needValue());
    } else if (name == "state") {
      o.state = needValue();
    } else if (name == "save-state") {
      o.saveState = needValue();
    } else if (name == "csv") {
      o.csv = needValue();
    } else if (name == "no-graph") {
      noValue();
      o.noGraph = true;
    } else if (name == "help" || name == "h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else {
      fail("unknown option '" + arg + "' (see --help)");
    }
  }
  if (o.program.empty())
    fail("no program given (usage: uop-runner PROGRAM.uopx [options]; see --help)");
  bool training = !o.data.empty() || !o.state.empty() || !o.saveState.empty() || !o.csv.empty() ||
                  o.every || o.loss || o.noGraph;
  if (training && !o.steps)
    fail("--data, --state, --save-state, --every, --loss, --csv and --no-graph train a step "
         "bundle: give --steps=N");
  if (o.steps && (!o.inputs.empty() || o.randomInputs || o.print || o.bench))
    fail("--steps trains a step bundle: --input, --random-inputs, --print and --bench run a "
         "program bundle");
  return o;
}

/// "(128, 784) f32", "() f32".
std::string describe(const std::vector<int64_t> &shape, rt::DType dtype) {
  return rt::shapeString(shape) + " " + rt::dtypeName(dtype);
}

/// Creates `dir` (and its parents) if missing.
void makeDirs(const std::string &dir) {
  for (size_t at = 1; at <= dir.size(); ++at) {
    if (at != dir.size() && dir[at] != '/')
      continue;
    std::string part = dir.substr(0, at);
    if (::mkdir(part.c_str(), 0755) != 0 && errno != EEXIST)
      fail("cannot create " + part + ": " + std::strerror(errno));
  }
}

/// --steps: train with a step bundle.
int train(const Options &opts) {
  rt::Result<rt::StepBundle> bundle = rt::readStepBundle(opts.program);
  if (!bundle)
    fail(bundle.error());
  const rt::StepProgram &step = bundle->step;
  if (opts.printPlan) {
    std::fputs(step.serialize().c_str(), stdout);
    for (size_t j = 0; j < bundle->programs.size(); ++j)
      std::printf("program %zu:\n%s", j, rt::formatPlan(bundle->programs[j].plan).c_str());
  }
  rt::StepRunOptions runOptions;
  runOptions.graph = !opts.noGraph;
  rt::Result<std::unique_ptr<rt::StepRunner>> loaded =
      rt::StepRunner::load(*bundle, opts.program, runOptions);
  if (!loaded)
    fail(loaded.error());
  rt::StepRunner &runner = **loaded;
  int64_t stateValues = 0, states = 0, fixed = 0;
  for (const rt::StepTensor &t : step.tensors) {
    if (!t.state) {
      ++fixed;
      continue;
    }
    ++states;
    int64_t n = 1;
    for (int64_t d : t.shape)
      n *= d;
    stateValues += n;
  }
  std::printf("step: %zu realize(s), %u kernel launch(es); %zu input(s), %lld state tensor(s) "
              "(%lld values), %lld fixed\n",
              step.realizes.size(), runner.launchesPerStep(), step.inputs.size(),
              (long long)states, (long long)stateValues, (long long)fixed);
  std::printf("device: %s\n", runner.description().c_str());

  if (!opts.state.empty()) {
    for (size_t k = 0; k < step.tensors.size(); ++k) {
      if (!step.tensors[k].state)
        continue;
      std::string path = opts.state + "/" + step.tensors[k].name + ".npy";
      rt::Result<rt::HostBuffer> v = rt::readNpy(path);
      if (!v)
        fail(v.error());
      if (v->shape() != step.tensors[k].shape)
        fail(path + ": " + v->describe() + ", but state " + step.tensors[k].name + " is " +
             describe(step.tensors[k].shape, step.tensors[k].dtype));
      if (rt::Result<bool> ok = runner.setTensor(k, *v); !ok)
        fail(path + ": " + ok.error());
    }
  }
  std::vector<bool> fed(step.inputs.size(), false);
  for (const std::string &d : opts.data) {
    rt::Result<std::pair<int64_t, std::string>> arg = rt::parseSlotArg("data", d);
    if (!arg)
      fail(arg.error());
    auto [k, path] = *arg;
    if (k >= static_cast<int64_t>(step.inputs.size()))
      fail("--data " + d + ": the step has " + std::to_string(step.inputs.size()) + " input(s)");
    if (fed[k])
      fail("--data: input " + std::to_string(k) + " given twice");
    rt::Result<rt::HostBuffer> v = rt::readNpy(path);
    if (!v)
      fail(v.error());
    if (rt::Result<bool> ok = runner.setData(static_cast<size_t>(k), *v); !ok)
      fail(path + ": " + ok.error());
    fed[k] = true;
  }
  for (size_t k = 0; k < step.inputs.size(); ++k)
    if (!fed[k])
      fail("input " + std::to_string(k) + " (" + describe(step.inputs[k].shape, step.inputs[k].dtype) +
           ") has no data: pass --data " + std::to_string(k) + "=FILE.npy");
  if (opts.loss >= step.outputs.size())
    fail("--loss=" + std::to_string(opts.loss) + ": the step has " +
         std::to_string(step.outputs.size()) + " output(s)");
  std::vector<std::pair<int64_t, std::string>> outputs;
  for (const std::string &o : opts.outputs) {
    rt::Result<std::pair<int64_t, std::string>> arg = rt::parseSlotArg("output", o);
    if (!arg)
      fail(arg.error());
    if (arg->first >= static_cast<int64_t>(step.outputs.size()))
      fail("--output " + o + ": the step has " + std::to_string(step.outputs.size()) +
           " output(s)");
    outputs.push_back(*arg);
  }
  std::FILE *csv = nullptr;
  if (!opts.csv.empty()) {
    csv = std::fopen(opts.csv.c_str(), "w");
    if (!csv)
      fail("cannot write " + opts.csv + ": " + std::strerror(errno));
    std::fprintf(csv, "step,loss,ms\n");
  }

  int64_t steps = static_cast<int64_t>(*opts.steps);
  int64_t every = opts.every ? static_cast<int64_t>(opts.every) : std::max<int64_t>(1, steps / 10);
  int width = static_cast<int>(std::to_string(steps).size());
  double firstLoss = 0, lastLoss = 0, firstSeconds = 0, restSeconds = 0;
  int64_t printed = 0;
  auto report = [&](const rt::StepReport &r) -> rt::Result<bool> {
    int64_t first = r.step - static_cast<int64_t>(r.values.size()) + 1;
    double ms = r.seconds * 1e3 / std::max<size_t>(r.values.size(), 1);
    for (size_t i = 0; i < r.values.size(); ++i) {
      int64_t s = first + static_cast<int64_t>(i);
      double loss = r.values[i];
      if (!std::isfinite(loss))
        return rt::Error{std::string("the loss is ") + (std::isnan(loss) ? "NaN" : "infinite") +
                         " at step " + std::to_string(s) + ": training diverged"};
      if (s == 1)
        firstLoss = loss;
      lastLoss = loss;
      if (csv) {
        char num[64];
        std::snprintf(num, sizeof num, "%.17g", loss);
        std::fprintf(csv, "%lld,%s,%.6g\n", (long long)s, num, ms);
      }
    }
    if (r.step == 1)
      firstSeconds = r.seconds;
    else
      restSeconds += r.seconds;
    if (r.step == 1 || r.step == steps || r.step - printed >= every) {
      std::printf("train step %*lld/%lld loss %.4f %9.3f ms/step\n", width, (long long)r.step,
                  (long long)steps, lastLoss, ms);
      std::fflush(stdout);
      printed = r.step;
    }
    return true;
  };
  // The first step alone (it pays for lazy loading), then the rest.
  rt::Result<bool> ran = runner.run(1, 1, static_cast<int64_t>(opts.loss), report);
  if (ran && steps > 1)
    ran = runner.run(steps - 1, every, static_cast<int64_t>(opts.loss), report);
  if (csv)
    std::fclose(csv);
  if (!ran)
    fail(ran.error());
  std::printf("loss %.4f at step 1, %.4f at step %lld; %.3f ms/step", firstLoss, lastLoss,
              (long long)steps, steps > 1 ? restSeconds * 1e3 / double(steps - 1) : firstSeconds * 1e3);
  if (steps > 1)
    std::printf(" (steps 2-%lld; step 1: %.3f ms)", (long long)steps, firstSeconds * 1e3);
  std::printf("\n");

  for (auto &[k, path] : outputs) {
    rt::Result<rt::HostBuffer> v = runner.output(static_cast<size_t>(k));
    if (!v)
      fail(v.error());
    if (rt::Result<bool> ok = rt::atomicWriteFile(path, rt::encodeNpy(*v)); !ok)
      fail(ok.error());
  }
  if (opts.profile) {
    // One step's kernels, each alone (the state does not move).
    rt::Result<std::vector<std::vector<rt::KernelProfile>>> prof = runner.profile(3);
    if (!prof)
      fail(prof.error());
    std::vector<rt::KernelProfile> all;
    for (auto &realize : *prof)
      all.insert(all.end(), realize.begin(), realize.end());
    std::sort(all.begin(), all.end(), [](const rt::KernelProfile &a, const rt::KernelProfile &b) {
      return a.seconds > b.seconds;
    });
    std::fputs(rt::formatProfile(all).c_str(), stdout);
  }
  if (!opts.saveState.empty()) {
    makeDirs(opts.saveState);
    for (size_t k = 0; k < step.tensors.size(); ++k) {
      if (!step.tensors[k].state)
        continue;
      rt::Result<rt::HostBuffer> v = runner.tensor(k);
      if (!v)
        fail(v.error());
      std::string path = opts.saveState + "/" + step.tensors[k].name + ".npy";
      if (rt::Result<bool> ok = rt::atomicWriteFile(path, rt::encodeNpy(*v)); !ok)
        fail(ok.error());
    }
    std::printf("state: %s (%lld .npy files)\n", opts.saveState.c_str(), (long long)states);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options opts = parseArgs(argc, argv);
  if (opts.steps)
    return train(opts);
  rt::RunRequest request;
  request.inputs = opts.inputs;
  request.outputs = opts.outputs;
  request.print = opts.print;
  request.bench = opts.bench;
  request.profile = opts.profile;
  if (opts.randomInputs) {
    uint64_t s = 0;
    if (!opts.randomInputs->empty()) {
      std::optional<uint64_t> v = rt::parseUnsigned(*opts.randomInputs);
      if (!v)
        fail("--random-inputs expects an integer seed, got '" + *opts.randomInputs + "'");
      s = *v;
    }
    request.seed = s;
  }
  if (request.bench > rt::kMaxBenchRuns)
    fail("--bench=" + std::to_string(request.bench) + ": at most " +
         std::to_string(rt::kMaxBenchRuns) + " runs");
  request.extraInputs = {opts.program};
  if (rt::Result<bool> ok = rt::checkRequestFiles(request); !ok)
    fail(ok.error());

  rt::Result<rt::Bundle> bundle = rt::readBundle(opts.program);
  if (!bundle)
    fail(bundle.error());
  if (opts.printPlan) {
    std::fputs(rt::formatPlan(bundle->plan).c_str(), stdout);
    std::fflush(stdout);
  }
  rt::Result<std::unique_ptr<rt::Executable>> loaded = rt::loadBundle(*bundle, opts.program);
  if (!loaded)
    fail(loaded.error());
  if (rt::Result<bool> ran = rt::runRequest(**loaded, request, stdout); !ran)
    fail(ran.error());
  return 0;
}
