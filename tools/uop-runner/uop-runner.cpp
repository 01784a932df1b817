//===- uop-runner.cpp - run a compiled uop program (.uopx) ------*- C++ -*-===//
//
//   uop-runner PROGRAM.uopx [--input SLOT=FILE.npy]... [--random-inputs[=SEED]]
//              [--output FILE.npy | SLOT=FILE.npy]... [--print] [--print-plan]
//              [--bench=N]
//
// uop-run without the compiler: it loads a bundle (Bundle.h) that holds a
// compiled program (a CPU shared library, or the PTX of CUDA kernels) and its
// host plan, binds buffers to the plan's arguments, runs it and saves or
// prints what it computed. Flags, output and error messages are uop-run's.
// It links only the runtime (no LLVM, no MLIR), so it builds with
// -DUOP_RUNTIME_ONLY=ON on a GPU host. A CUDA bundle on a machine without a
// GPU fails with "no CUDA device: ...", exit status 1.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Runtime.h"

#include <cerrno>
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

/// The most runs --bench takes (as uop-run).
constexpr unsigned kMaxBenchRuns = 1000000;

[[noreturn]] void fail(const std::string &msg) {
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
    "  --output=<FILE|SLOT=FILE>  FILE.npy: save the next value; SLOT=FILE.npy: save a buffer "
    "after the run\n"
    "  --print                    Print the values (or the buffers written)\n"
    "  --print-plan               Print the plan: buffers, and each kernel with its launches, "
    "work and opts\n"
    "  --random-inputs[=<SEED>]   Fill buffers without --input with random data (optional "
    "seed, default 0)\n";

/// A non-negative decimal integer, all of `text`.
std::optional<uint64_t> parseUnsigned(const std::string &text) {
  if (text.empty() || text.size() > 20)
    return std::nullopt;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return std::nullopt;
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10)
      return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

/// Splits "SLOT=FILE".
std::pair<int64_t, std::string> parseSlotArg(const std::string &flag, const std::string &arg) {
  size_t eq = arg.find('=');
  std::string slot = arg.substr(0, eq), file = eq == std::string::npos ? "" : arg.substr(eq + 1);
  std::optional<uint64_t> n = parseUnsigned(slot);
  if (file.empty() || !n || *n > uint64_t(INT64_MAX))
    fail("--" + flag + " expects SLOT=FILE.npy, got '" + arg + "'");
  return {static_cast<int64_t>(*n), file};
}

struct Options {
  std::string program;
  std::vector<std::string> inputs, outputs;
  std::optional<std::string> randomInputs; ///< set: given, maybe with a seed
  bool print = false, printPlan = false;
  uint64_t bench = 0;
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
        fail("too many positional arguments: '" + o.program + "' and '" + arg +
             "' (one program)");
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
    } else if (name == "print") {
      noValue();
      o.print = true;
    } else if (name == "print-plan") {
      noValue();
      o.printPlan = true;
    } else if (name == "bench") {
      std::string v = needValue();
      std::optional<uint64_t> n = parseUnsigned(v);
      if (!n)
        fail("--bench expects a number of runs, got '" + v + "'");
      o.bench = *n;
    } else if (name == "help" || name == "h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else {
      fail("unknown option '" + arg + "' (see --help)");
    }
  }
  if (o.program.empty())
    fail("no program given (usage: uop-runner PROGRAM.uopx [options]; see --help)");
  return o;
}

void printPlanTo(std::FILE *os, const rt::HostPlan &plan) {
  static const char *kinds[] = {"input", "output", "temp"};
  std::fprintf(os, "plan: %s, %u launch(es)\n",
               plan.form == rt::HostPlan::Shaped ? "shaped" : "in-place", plan.numLaunches);
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const rt::PlanArg &a = plan.args[i];
    std::fprintf(os, "  arg %zu: %s", i, kinds[a.kind]);
    if (a.slot >= 0)
      std::fprintf(os, " slot %" PRId64, a.slot);
    std::fprintf(os, ", %" PRId64 " x %s", a.numel, rt::dtypeName(a.dtype));
    if (plan.form == rt::HostPlan::InPlace)
      std::fprintf(os, "%s%s", a.read ? ", read" : "", a.written ? ", written" : "");
    std::fprintf(os, "\n");
  }
  for (const rt::PlanKernel &k : plan.kernels)
    std::fprintf(os, "  kernel %s: %u launch(es), %.0f flop, %.0f bytes, opts %s\n",
                 k.name.c_str(), k.launches, k.flops, k.bytes,
                 k.opts.empty() ? "none" : k.opts.c_str());
  for (size_t i = 0; i < plan.launches.size(); ++i) {
    const rt::PlanLaunch &l = plan.launches[i];
    std::fprintf(os, "  launch %zu: %s(", i, plan.kernels[l.kernel].name.c_str());
    for (size_t j = 0; j < l.args.size(); ++j)
      std::fprintf(os, "%sarg %u", j ? ", " : "", l.args[j]);
    std::fprintf(os, ")\n");
  }
}

} // namespace

int main(int argc, char **argv) {
  Options opts = parseArgs(argc, argv);
  if (opts.bench > kMaxBenchRuns)
    fail("--bench=" + std::to_string(opts.bench) + ": at most " + std::to_string(kMaxBenchRuns) +
         " runs");
  std::optional<uint64_t> seed;
  if (opts.randomInputs) {
    uint64_t s = 0;
    if (!opts.randomInputs->empty()) {
      std::optional<uint64_t> v = parseUnsigned(*opts.randomInputs);
      if (!v)
        fail("--random-inputs expects an integer seed, got '" + *opts.randomInputs + "'");
      s = *v;
    }
    seed = s;
  }

  rt::Result<rt::Bundle> bundle = rt::readBundle(opts.program);
  if (!bundle)
    fail(bundle.error());
  const rt::HostPlan &plan = bundle->plan;
  bool shaped = plan.form == rt::HostPlan::Shaped;
  if (opts.printPlan) {
    printPlanTo(stdout, plan);
    std::fflush(stdout);
  }
  rt::Result<std::unique_ptr<rt::Executable>> loaded = rt::loadBundle(*bundle, opts.program);
  if (!loaded)
    fail(loaded.error());
  rt::Executable &exe = **loaded;

  // Inputs by slot: each names a slot the program takes, once.
  std::map<int64_t, std::string> inputFiles;
  for (const std::string &arg : opts.inputs) {
    auto [slot, path] = parseSlotArg("input", arg);
    if (plan.argOfSlot(slot) < 0)
      fail("--input " + arg + ": the program has no buffer slot " + std::to_string(slot));
    if (!inputFiles.emplace(slot, path).second)
      fail("--input " + arg + ": slot " + std::to_string(slot) + " is already given by --input " +
           std::to_string(slot) + "=" + inputFiles[slot]);
  }
  // The buffer of one argument: from its --input file, random, or zeroed.
  auto makeBuffer = [&](const rt::PlanArg &a) {
    std::string what = std::to_string(a.numel) + " x " + rt::dtypeName(a.dtype);
    if (auto it = inputFiles.find(a.slot); a.slot >= 0 && it != inputFiles.end()) {
      auto buf = rt::readNpy(it->second);
      if (!buf.ok())
        fail("slot " + std::to_string(a.slot) + ": " + buf.error());
      if (buf.value().dtype() != a.dtype || buf.value().numel() != a.numel)
        fail("slot " + std::to_string(a.slot) + ": the program's buffer is " + what + ", but " +
             it->second + " holds " + std::to_string(buf.value().numel()) + " x " +
             rt::dtypeName(buf.value().dtype()));
      return buf.take();
    }
    auto b = rt::HostBuffer::create(a.dtype, {a.numel});
    if (!b.ok())
      fail((a.slot >= 0 ? "slot " + std::to_string(a.slot) : std::string("an output")) + ": " +
           b.error());
    bool needsInput = shaped ? a.kind == rt::PlanArg::Input : a.read;
    if (a.slot >= 0 && seed)
      b.value().fillRandom(*seed + a.slot);
    else if (needsInput)
      fail("missing input for slot " + std::to_string(a.slot) + " (a buffer of " + what +
           " the program reads): pass --input " + std::to_string(a.slot) +
           "=FILE.npy or --random-inputs");
    return b.take();
  };
  // One buffer per argument that is not a temporary, in plan order.
  std::vector<rt::HostBuffer> buffers;
  for (const rt::PlanArg &a : plan.args)
    if (a.kind != rt::PlanArg::Temp)
      buffers.push_back(makeBuffer(a));
  std::vector<void *> args;
  std::vector<const rt::HostBuffer *> argBuffers;
  for (rt::HostBuffer &b : buffers) {
    args.push_back(b.data());
    argBuffers.push_back(&b);
  }

  if (opts.bench > 0) {
    rt::Result<std::vector<double>> times = exe.bench(args, static_cast<int>(opts.bench));
    if (!times)
      fail(times.error());
    double t = rt::median(*times);
    std::printf("median %.3f ms over %u runs", t * 1e3, static_cast<unsigned>(opts.bench));
    if (plan.flops() > 0)
      std::printf(", %.2f GFLOP/s", plan.flops() / t / 1e9);
    std::printf("\n");
  } else if (rt::Result<bool> ran = exe.runRaw(args); !ran) {
    fail(ran.error());
  }

  std::vector<rt::HostBuffer> results;
  if (shaped)
    results = exe.values(argBuffers);
  size_t nextResult = 0;
  for (const std::string &arg : opts.outputs) {
    if (arg.find('=') == std::string::npos) {
      // --output FILE.npy: the next value of a shaped program, with its shape.
      if (!shaped)
        fail("--output " + arg + ": a kernel-level program has no value; save a buffer "
                                 "with --output SLOT=FILE.npy");
      if (nextResult >= results.size())
        fail("--output " + arg + ": the program has only " + std::to_string(results.size()) +
             " value(s)");
      auto ok = rt::writeNpy(arg, results[nextResult++]);
      if (!ok.ok())
        fail(ok.error());
      continue;
    }
    auto [slot, path] = parseSlotArg("output", arg);
    int64_t index = plan.argOfSlot(slot);
    if (index < 0)
      fail("--output " + arg + ": the program has no buffer slot " + std::to_string(slot) +
           (shaped ? " (save a shaped program's value with --output FILE.npy)" : ""));
    auto ok = rt::writeNpy(path, buffers[index]);
    if (!ok.ok())
      fail(ok.error());
  }
  if (opts.print && shaped) {
    for (size_t i = 0; i < results.size(); ++i) {
      if (results.size() > 1)
        std::printf("value %zu: ", i);
      std::printf("%s\n", results[i].format().c_str());
    }
  } else if (opts.print) {
    for (size_t i = 0; i < plan.args.size(); ++i)
      if (plan.args[i].written)
        std::printf("slot %" PRId64 ": %s\n", plan.args[i].slot, buffers[i].format().c_str());
  }
  return 0;
}
