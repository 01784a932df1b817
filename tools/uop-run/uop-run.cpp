//===- uop-run.cpp - compile and run a uop program -------------*- C++ -*-===//
//
//   uop-run PROGRAM [--target=cpu|emulate|cuda] [--mcpu=CPU] [--chip=sm_NN]
//           [--opt=none|hand|search] [--search-seconds=S] [--fuse-reduce]
//           [--input SLOT=FILE.npy]... [--random-inputs[=SEED]]
//           [--output FILE.npy | SLOT=FILE.npy]... [--print] [--print-plan]
//           [--bench=N] [--profile] [--codegen=llvm|c|cuda-c] [--print-c]
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
#include "Uop/IR/UopAttrs.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/Runtime/File.h"
#include "Uop/Runtime/Runtime.h"
#include "Uop/Support/CrashWatchdog.h"
#include "Uop/Support/LargeStack.h"
#include "Uop/Target/Program.h"
#include "Uop/Target/UIR.h"

#include "mlir/AsmParser/AsmParser.h"
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

#include <cstdio>

using namespace mlir;
namespace cl = llvm::cl;
namespace rt = ::uop::rt;

/// The options uop-run --help lists (LLVM's own stay usable, unlisted).
static cl::OptionCategory toolOptions("uop-run options");
static cl::opt<std::string> inputFile(cl::cat(toolOptions), cl::Positional,
                                      cl::desc("<program.uir|program.mlir>"), cl::Required);
static cl::list<std::string> inputs(cl::cat(toolOptions), "input",
                                    cl::desc("SLOT=FILE.npy: the contents of a buffer slot"));
static cl::opt<std::string> randomInputs(
    cl::cat(toolOptions), "random-inputs", cl::ValueOptional,
    cl::desc("Fill buffers without --input with random data (optional seed, default 0)"));
static cl::list<std::string>
    outputs(cl::cat(toolOptions), "output",
            cl::desc("FILE.npy: save the next value; SLOT=FILE.npy: save a buffer after the run"));
static cl::opt<bool> printBuffers(cl::cat(toolOptions), "print",
                                  cl::desc("Print the values (or the buffers written)"));
static cl::opt<bool> printPlan(cl::cat(toolOptions), "print-plan",
                               cl::desc("Print the compiled plan: buffers, and each kernel with "
                                        "its launches, work and opts"));
static cl::opt<bool> printC(cl::cat(toolOptions), "print-c",
                            cl::desc("Print the program's C (CUDA C for --target=cuda), as the C "
                                     "path (--codegen=c) compiles it, before running it"));
static cl::opt<uint64_t> benchRuns(cl::cat(toolOptions), "bench",
                                   cl::desc("Time N runs; print the median and GFLOP/s"),
                                   cl::init(0));
static cl::opt<bool> profile(cl::cat(toolOptions), "profile",
                             cl::desc("After the run, print one line per kernel: launches, "
                                      "time, GFLOP/s, GB/s and its opts (CPU)"));
static cl::opt<std::string> memoryBudget(
    cl::cat(toolOptions), "memory-budget",
    cl::desc("The most memory all buffers may take together (512M, 8G; default "
             "$UOP_MEMORY_BUDGET or the physical memory)"),
    cl::value_desc("size"));
static cl::opt<std::string>
    optsText(cl::cat(toolOptions), "opts",
             cl::desc("#uop.opts<...> to set on @main: a loop program's own opts (e.g. "
                      "'#uop.opts<vector = 16>', its register tiles' vector lanes), or a shaped "
                      "program's function-level override, which every kernel then takes"),
             cl::value_desc("attribute"));

namespace {

[[noreturn]] void fail(const llvm::Twine &msg) {
  std::string text = msg.str();
  if (rt::isLocatedError(text)) // a failed run-time check, at the program's op
    llvm::errs() << text << "\n";
  else
    llvm::errs() << "uop-run: error: " << text << "\n";
  exit(1);
}

} // namespace

static int runMain(int argc, char **argv);

/// The work (parsing, compiling, running) is on a thread with a large stack:
/// MLIR's parser, verifier and printer recurse once per nested region.
int main(int argc, char **argv) {
  return mlir::uop::runWithLargeStack([&] { return runMain(argc, argv); });
}

static int runMain(int argc, char **argv) {
  mlir::uop::installCrashWatchdog();
  llvm::InitLLVM y(argc, argv);
  mlir::uop::registerCompileCLOptions();
  cl::HideUnrelatedOptions({&toolOptions, &mlir::uop::getCompileOptionsCategory()});
  cl::ParseCommandLineOptions(argc, argv, "uop-run: compile and run a uop program\n");
  std::string error;
  FailureOr<mlir::uop::CompileOptions> parsed = mlir::uop::getCompileOptionsFromCL(error);
  if (failed(parsed))
    fail(error);
  mlir::uop::CompileOptions options = *parsed;
  options.printC = printC;
  if (memoryBudget.getNumOccurrences())
    if (rt::Result<bool> ok = rt::setMemoryBudget(memoryBudget); !ok)
      fail(ok.error());
  rt::RunRequest request;
  request.inputs = inputs;
  request.outputs = outputs;
  request.print = printBuffers;
  request.bench = benchRuns;
  request.profile = profile;
  if (randomInputs.getNumOccurrences()) {
    uint64_t s = 0;
    if (!randomInputs.empty() && StringRef(randomInputs).getAsInteger(10, s))
      fail("--random-inputs expects an integer seed, got '" + randomInputs + "'");
    request.seed = s;
  }
  if (request.bench > rt::kMaxBenchRuns)
    fail("--bench=" + std::to_string(request.bench) + ": at most " +
         std::to_string(rt::kMaxBenchRuns) + " runs");
  request.extraInputs = {inputFile};
  if (rt::Result<bool> ok = rt::checkRequestFiles(request); !ok)
    fail(ok.error());

  DialectRegistry registry;
  mlir::uop::registerUIRDialects(registry);
  registerAllExtensions(registry);
  MLIRContext context(registry);

  // Read boundedly: a FIFO or /dev/zero as the program cannot hang.
  rt::Result<std::string> text = rt::readInputFile(inputFile);
  if (!text)
    fail(text.error());
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(*text, inputFile == "-" ? "<stdin>" : inputFile.getValue()),
      SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = mlir::uop::parseProgram(sourceMgr, &context);
  if (!module)
    return 1;
  if (optsText.getNumOccurrences()) {
    auto opts = dyn_cast_or_null<mlir::uop::OptsAttr>(mlir::parseAttribute(optsText, &context));
    if (!opts)
      fail("--opts: '" + optsText + "' is not a #uop.opts<...> attribute");
    auto main = module->lookupSymbol<func::FuncOp>("main");
    if (!main)
      fail("--opts: the program has no func.func @main");
    main->setAttr(mlir::uop::kOptsAttrName, opts);
  }
  auto compiled = mlir::uop::compileProgram(*module, options);
  if (failed(compiled))
    return 1;
  if (printC) {
    std::fputs(compiled->source.c_str(), stdout);
    std::fflush(stdout);
  }
  if (printPlan) {
    std::fputs(rt::formatPlan(compiled->plan).c_str(), stdout);
    std::fflush(stdout);
  }
  // Loading is the runtime's: e.g. "no CUDA device: ..." on a machine without one.
  auto exe = mlir::uop::load(std::move(*compiled));
  if (!exe)
    fail(exe.error());
  if (rt::Result<bool> ran = rt::runRequest(**exe, request, stdout); !ran)
    fail(ran.error());
  return 0;
}
