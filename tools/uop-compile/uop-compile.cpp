//===- uop-compile.cpp - compile a uop program into a bundle ----*- C++ -*-===//
//
//   uop-compile PROGRAM [--target=cpu|emulate|cuda] [--opt=none|hand|search] [--fuse-reduce]
//               -o PROGRAM.uopx
//
// The compiling half of uop-run: the program (.uir or .mlir) is compiled by
// the execution engine, and the executable (its host plan and its code: the
// shared library for the host CPU) is written as a self-contained bundle
// (uop::rt::Bundle) that uop-runner, which has no compiler, loads and runs
// on another machine (IREE's compiler / iree-run-module split).
//
//===----------------------------------------------------------------------===//

#include "Uop/ExecutionEngine/ExecutionEngine.h"
#include "Uop/Runtime/Bundle.h"
#include "Uop/Runtime/Loader.h"
#include "Uop/Support/LargeStack.h"
#include "Uop/Target/Program.h"
#include "Uop/Target/UIR.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
namespace cl = llvm::cl;
namespace rt = ::uop::rt;

/// The options uop-compile --help lists (LLVM's own stay usable, unlisted).
static cl::OptionCategory toolOptions("uop-compile options");
static cl::opt<std::string> inputFile(cl::cat(toolOptions), cl::Positional,
                                      cl::desc("<program.uir|program.mlir>"), cl::Required);
static cl::opt<std::string> outputFile(cl::cat(toolOptions), "o",
                                       cl::desc("The bundle to write (.uopx)"),
                                       cl::value_desc("file"), cl::Required);
static cl::opt<std::string> target(cl::cat(toolOptions), "target",
                                   cl::desc("cpu (default), emulate (the GPU mapping on the "
                                            "CPU) or cuda"),
                                   cl::init("cpu"));
static cl::opt<bool> fuseReduce(cl::cat(toolOptions), "fuse-reduce",
                                cl::desc("Kernelize with reductions fused into their consumers"));
static cl::opt<std::string> optMode(cl::cat(toolOptions), "opt",
                                    cl::desc("hand (default: uop-layout and the seed's hand "
                                             "rules), none (as written) or search (uop-search)"),
                                    cl::init("hand"));
static cl::opt<double> searchSeconds(cl::cat(toolOptions), "search-seconds",
                                     cl::desc("--opt=search: the time bound of one kernel's "
                                              "search (default 60)"),
                                     cl::init(60));
static cl::opt<bool> unchecked(cl::cat(toolOptions), "unchecked",
                               cl::desc("No run-time checks of the indices and divisors the bounds "
                                        "analysis does not prove safe (out of bounds and division "
                                        "by zero are then undefined)"));
static cl::opt<std::string> chip(cl::cat(toolOptions), "chip",
                                 cl::desc("--target=cuda: the GPU architecture"),
                                 cl::init("sm_90"));

[[noreturn]] static void fail(const llvm::Twine &msg) {
  llvm::errs() << "uop-compile: error: " << msg << "\n";
  exit(1);
}

static int compileMain(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(argc, argv, "uop-compile: compile a uop program into a bundle\n");
  mlir::uop::CompileOptions options;
  if (auto t = mlir::uop::parseCompileTarget(target))
    options.target = *t;
  else
    fail("unknown --target '" + target + "' (expected cpu, emulate or cuda)");
  if (auto m = mlir::uop::parseOptMode(optMode))
    options.opt = *m;
  else
    fail("unknown --opt '" + optMode + "' (expected none, hand or search)");
  if (options.opt == mlir::uop::OptMode::Search && options.target != mlir::uop::CompileTarget::CPU)
    fail("--opt=search times kernels on this CPU: use it with --target=cpu");
  if (!(searchSeconds >= 0))
    fail("--search-seconds must be >= 0");
  options.searchSeconds = searchSeconds;
  options.fuseReduce = fuseReduce;
  options.checks = !unchecked;
  options.chip = chip;

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
  auto compiled = mlir::uop::compileProgram(*module, options);
  if (failed(compiled))
    return 1;
  rt::Bundle bundle;
  if (compiled->target == mlir::uop::CompileTarget::CUDA) {
    // Needs no GPU: the bundle holds the PTX, loaded where it runs.
    bundle = rt::Bundle::cuda(std::move(compiled->plan), std::move(compiled->ptx), options.chip);
  } else {
    auto exe = mlir::uop::load(std::move(*compiled));
    if (!exe)
      fail(exe.error());
    std::string cpu =
        options.codegen.cpu.empty() ? llvm::sys::getHostCPUName().str() : options.codegen.cpu;
    auto b = rt::bundleOf(**exe, rt::hostMachine() + " " + cpu);
    if (!b)
      fail(b.error());
    bundle = b.take();
  }
  if (auto ok = rt::writeBundle(outputFile, bundle); !ok)
    fail(ok.error());
  return 0;
}

/// On a thread with a large stack, as every uop tool: MLIR's parser, verifier
/// and printer recurse once per nested region.
int main(int argc, char **argv) {
  return mlir::uop::runWithLargeStack([&] { return compileMain(argc, argv); });
}
