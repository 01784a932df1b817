//===- uop-run.cpp - compile and run a uop program -------------*- C++ -*-===//
//
//   uop-run PROGRAM [--target=cpu|emulate] [--opt=none|hand] [--fuse-reduce]
//           [--input SLOT=FILE.npy]... [--random-inputs[=SEED]]
//           [--output FILE.npy | SLOT=FILE.npy]... [--print] [--print-plan]
//           [--bench=N]
//
// A thin command line over the execution engine (mlir::uop::compile): it
// reads the program (.uir or .mlir), compiles it, binds buffers to the
// plan's arguments, runs it and saves or prints what it computed.
//
// A shaped program (L1: its results are values) is kernelized and its host
// run; `--output FILE.npy` saves the next value with its shape and dtype,
// `--print` prints the values. Every buffer slot it reads needs an input (or
// --random-inputs). A kernel-level program (L2: its result is a uop.sink of
// stores) runs with its buffers read and written in place: every slot it
// loads from needs an input; slots it only stores to start zeroed.
// `--output SLOT=FILE` saves a buffer after the run, `--print` prints the
// buffers the kernel writes.
//
//===----------------------------------------------------------------------===//

#include "Uop/ExecutionEngine/ExecutionEngine.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/Runtime/Runtime.h"
#include "Uop/Target/Program.h"
#include "Uop/Target/UIR.h"
#include "Uop/Support/LargeStack.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;
namespace cl = llvm::cl;
namespace rt = ::uop::rt;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<program.uir|program.mlir>"),
                                      cl::Required);
static cl::opt<std::string> target("target",
                                   cl::desc("cpu (default), emulate (the GPU mapping, with "
                                            "block and thread ids as loops) or cuda"),
                                   cl::init("cpu"));
static cl::list<std::string> inputs("input", cl::desc("SLOT=FILE.npy: the contents of a buffer slot"));
static cl::opt<std::string> randomInputs(
    "random-inputs", cl::ValueOptional,
    cl::desc("Fill buffers without --input with random data (optional seed, default 0)"));
static cl::list<std::string> outputs(
    "output", cl::desc("FILE.npy: save the next value; SLOT=FILE.npy: save a buffer after the run"));
static cl::opt<bool> printBuffers("print", cl::desc("Print the values (or the buffers written)"));
static cl::opt<bool> printPlan("print-plan",
                               cl::desc("Print the compiled plan: buffers, and each kernel with "
                                        "its launches, work and opts"));
static cl::opt<unsigned> benchRuns("bench", cl::desc("Time N runs; print the median and GFLOP/s"),
                                   cl::init(0));
static cl::opt<bool> fuseReduce("fuse-reduce",
                                cl::desc("Kernelize with reductions fused into their consumers"));
static cl::opt<std::string> optMode("opt", cl::desc("none (default) or hand"), cl::init("none"));

/// The most runs --bench takes (more is surely a mistake, and would overflow
/// the timer's count).
static constexpr unsigned kMaxBenchRuns = 1000000;

namespace {

[[noreturn]] void fail(const llvm::Twine &msg) {
  llvm::errs() << "uop-run: error: " << msg << "\n";
  exit(1);
}

/// Splits "SLOT=FILE".
std::pair<int64_t, std::string> parseSlotArg(StringRef flag, StringRef arg) {
  auto [slot, file] = arg.split('=');
  int64_t n;
  if (file.empty() || slot.getAsInteger(10, n) || n < 0)
    fail("--" + flag + " expects SLOT=FILE.npy, got '" + arg + "'");
  return {n, file.str()};
}

/// The options of the command line, checked.
mlir::uop::CompileOptions compileOptions() {
  mlir::uop::CompileOptions options;
  if (auto t = mlir::uop::parseCompileTarget(target))
    options.target = *t;
  else if (target == "cuda")
    fail("--target=cuda is not available yet in this build (use cpu or emulate)");
  else
    fail("unknown --target '" + target + "' (expected cpu, emulate or cuda)");
  if (optMode == "hand")
    options.opt = mlir::uop::OptMode::Hand;
  else if (optMode == "search")
    fail("--opt=search is not available yet (use --opt=none or --opt=hand)");
  else if (optMode != "none")
    fail("unknown --opt '" + optMode + "' (expected none or hand)");
  options.fuseReduce = fuseReduce;
  return options;
}

void printPlanTo(llvm::raw_ostream &os, const rt::HostPlan &plan) {
  static const char *kinds[] = {"input", "output", "temp"};
  os << "plan: " << (plan.form == rt::HostPlan::Shaped ? "shaped" : "in-place") << ", "
     << plan.numLaunches << " launch(es)\n";
  for (auto [i, a] : llvm::enumerate(plan.args)) {
    os << "  arg " << i << ": " << kinds[a.kind];
    if (a.slot >= 0)
      os << " slot " << a.slot;
    os << ", " << a.numel << " x " << rt::dtypeName(a.dtype);
    if (plan.form == rt::HostPlan::InPlace)
      os << (a.read ? ", read" : "") << (a.written ? ", written" : "");
    os << "\n";
  }
  for (const rt::PlanKernel &k : plan.kernels)
    os << llvm::format("  kernel %s: %u launch(es), %.0f flop, %.0f bytes, opts %s\n",
                       k.name.c_str(), k.launches, k.flops, k.bytes,
                       k.opts.empty() ? "none" : k.opts.c_str());
  for (auto [i, l] : llvm::enumerate(plan.launches)) {
    os << "  launch " << i << ": " << plan.kernels[l.kernel].name << "(";
    llvm::interleaveComma(l.args, os, [&](unsigned a) { os << "arg " << a; });
    os << ")\n";
  }
}

} // namespace

static int runMain(int argc, char **argv);

/// The work (parsing, compiling, running) is on a thread with a large stack:
/// MLIR's parser, verifier and printer recurse once per nested region.
int main(int argc, char **argv) {
  return mlir::uop::runWithLargeStack([&] { return runMain(argc, argv); });
}

static int runMain(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "uop-run: compile and run a uop program\n");
  mlir::uop::CompileOptions options = compileOptions();
  if (benchRuns > kMaxBenchRuns)
    fail("--bench=" + std::to_string(benchRuns) + ": at most " + std::to_string(kMaxBenchRuns) +
         " runs");
  std::optional<uint64_t> seed;
  if (randomInputs.getNumOccurrences()) {
    uint64_t s = 0;
    if (!randomInputs.empty() && StringRef(randomInputs).getAsInteger(10, s))
      fail("--random-inputs expects an integer seed, got '" + randomInputs + "'");
    seed = s;
  }

  DialectRegistry registry;
  mlir::uop::registerUIRDialects(registry);
  registerAllExtensions(registry);
  MLIRContext context(registry);

  std::string errorMessage;
  auto file = openInputFile(inputFile, &errorMessage);
  if (!file)
    fail(errorMessage);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = mlir::uop::parseProgram(sourceMgr, &context);
  if (!module)
    return 1;
  auto compiled = mlir::uop::compile(*module, options);
  if (failed(compiled))
    return 1;
  rt::Executable &exe = **compiled;
  const rt::HostPlan &plan = exe.plan();
  bool shaped = plan.form == rt::HostPlan::Shaped;
  if (printPlan)
    printPlanTo(llvm::outs(), plan);

  // Inputs by slot: each names a slot the program takes, once.
  std::map<int64_t, std::string> inputFiles;
  for (const std::string &arg : inputs) {
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

  auto runOnce = [&] {
    auto ran = exe.runRaw(args);
    if (!ran.ok())
      fail(ran.error());
  };
  if (benchRuns > 0) {
    auto times = rt::timeRuns(runOnce, static_cast<int>(benchRuns));
    double t = rt::median(times);
    llvm::outs() << llvm::format("median %.3f ms over %u runs", t * 1e3, (unsigned)benchRuns);
    if (plan.flops() > 0)
      llvm::outs() << llvm::format(", %.2f GFLOP/s", plan.flops() / t / 1e9);
    llvm::outs() << "\n";
  } else {
    runOnce();
  }

  std::vector<rt::HostBuffer> results;
  if (shaped)
    results = exe.values(argBuffers);
  size_t nextResult = 0;
  for (const std::string &arg : outputs) {
    if (!StringRef(arg).contains('=')) {
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
  if (printBuffers && shaped) {
    for (auto [i, value] : llvm::enumerate(results)) {
      if (results.size() > 1)
        llvm::outs() << "value " << i << ": ";
      llvm::outs() << value.format() << "\n";
    }
  } else if (printBuffers) {
    for (auto [i, a] : llvm::enumerate(plan.args))
      if (a.written)
        llvm::outs() << "slot " << a.slot << ": " << buffers[i].format() << "\n";
  }
  return 0;
}
