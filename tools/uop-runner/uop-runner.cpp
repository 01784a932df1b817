//===- uop-runner.cpp - run a compiled uop program (.uopx) ------*- C++ -*-===//
//
//   uop-runner PROGRAM.uopx [--input SLOT=FILE.npy]... [--random-inputs[=SEED]]
//              [--output FILE.npy | SLOT=FILE.npy]... [--print] [--print-plan]
//              [--bench=N] [--profile]
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
    "seed, default 0)\n";

struct Options {
  std::string program;
  std::vector<std::string> inputs, outputs;
  std::optional<std::string> randomInputs; ///< set: given, maybe with a seed
  bool print = false, printPlan = false, profile = false;
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

} // namespace

int main(int argc, char **argv) {
  Options opts = parseArgs(argc, argv);
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
