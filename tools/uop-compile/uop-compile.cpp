//===- uop-compile.cpp - compile a uop program into a bundle ----*- C++ -*-===//
//
//   uop-compile PROGRAM [--target=cpu|emulate|cuda] [--mcpu=CPU] [--chip=sm_NN]
//               [--opt=none|hand|search] [--fuse-reduce] [--codegen=llvm|c|cuda-c]
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
#include "Uop/Runtime/File.h"
#include "Uop/Runtime/Loader.h"
#include "Uop/Support/CrashWatchdog.h"
#include "Uop/Support/LargeStack.h"
#include "Uop/Target/Program.h"
#include "Uop/Target/UIR.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

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

[[noreturn]] static void fail(const llvm::Twine &msg) {
  llvm::errs() << "uop-compile: error: " << msg << "\n";
  exit(1);
}

static int compileMain(int argc, char **argv) {
  mlir::uop::installCrashWatchdog();
  llvm::InitLLVM y(argc, argv);
  mlir::uop::registerCompileCLOptions();
  cl::HideUnrelatedOptions({&toolOptions, &mlir::uop::getCompileOptionsCategory()});
  cl::ParseCommandLineOptions(argc, argv, "uop-compile: compile a uop program into a bundle\n");
  std::string error;
  FailureOr<mlir::uop::CompileOptions> parsed = mlir::uop::getCompileOptionsFromCL(error);
  if (failed(parsed))
    fail(error);
  mlir::uop::CompileOptions options = *parsed;

  DialectRegistry registry;
  mlir::uop::registerUIRDialects(registry);
  registerAllExtensions(registry);
  MLIRContext context(registry);
  // The bundle's path first: never the program itself, a FIFO or a device.
  if (rt::Result<bool> ok = rt::checkOutputPath(outputFile, {inputFile}); !ok)
    fail("-o " + outputFile + ": " + ok.error());
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
  auto compiled = mlir::uop::compileProgram(*module, options);
  if (failed(compiled))
    return 1;
  // Needs no GPU and does not run the code: a bundle may be for another
  // machine (--mcpu, --chip) than this one.
  rt::Bundle bundle;
  if (compiled->target == mlir::uop::CompileTarget::CUDA) {
    std::string chip = rt::ptxTarget(compiled->ptx);
    bundle = rt::Bundle::cuda(std::move(compiled->plan), std::move(compiled->ptx), chip,
                              std::move(compiled->cubin));
  } else {
    auto library = llvm::MemoryBuffer::getFile(compiled->library, /*IsText=*/false);
    if (!library)
      fail(compiled->library + ": cannot read: " + library.getError().message());
    // The machine (x86-64), then the CPU the code is for.
    auto cpu = dyn_cast_or_null<mlir::uop::TargetAttr>(parseAttribute(compiled->machine, &context));
    bundle = rt::Bundle::cpu(std::move(compiled->plan), (*library)->getBuffer().str(),
                             rt::hostMachine() + " " + (cpu ? cpu.getCpu().str() : "?"));
    bundle.features = compiled->features;
  }
  bundle.machine = compiled->machine;
  if (auto ok = rt::writeBundle(outputFile, bundle); !ok)
    fail(ok.error());
  return 0;
}

/// On a thread with a large stack, as every uop tool: MLIR's parser, verifier
/// and printer recurse once per nested region.
int main(int argc, char **argv) {
  return mlir::uop::runWithLargeStack([&] { return compileMain(argc, argv); });
}
