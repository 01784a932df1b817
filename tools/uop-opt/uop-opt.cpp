//===- uop-opt.cpp - the uop optimizer driver ------------------*- C++ -*-===//
//
// MlirOptMain with the uop dialect, the upstream dialects that uop programs
// are lowered through, and the passes the uop pipelines use.
//
//===----------------------------------------------------------------------===//

#include "Uop/Codegen/Passes.h"
#include "Uop/Conversion/Passes.h"
#include "Uop/ExecutionEngine/Passes.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/IR/UopTeardown.h"
#include "Uop/Pipelines/Pipelines.h"
#include "Uop/Support/CrashWatchdog.h"
#include "Uop/Support/LargeStack.h"
#include "Uop/Target/Program.h"
#include "Uop/Target/UIR.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/EmitC/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

namespace {
/// Frees the program MlirOptMain ran on in linear time (UopTeardown.h): MLIR
/// frees nested regions in O(depth x ops), 10 s for 10,000 nested uop.calls.
/// MlirOptMain owns the program and frees it on return, after writing it
/// out; the pass manager, which owns this instrumentation, is made from the
/// program (it needs its name) and so is destroyed before it, after the
/// output: the destructor empties the program innermost first, and MlirOptMain
/// then frees an empty module.
class LinearTeardown : public mlir::PassInstrumentation {
public:
  ~LinearTeardown() override {
    if (root)
      mlir::uop::eraseNestedRegions(root);
  }
  void runBeforePass(mlir::Pass *, mlir::Operation *op) override {
    // The first pass runs on the program, on this thread, before any pass
    // runs on another.
    if (root)
      return;
    while (mlir::Operation *parent = op->getParentOp())
      op = parent;
    root = op;
  }

private:
  mlir::Operation *root = nullptr;
};
} // namespace

/// `config` with LinearTeardown added to its pass manager. An empty pipeline
/// gets an empty nested one, whose adaptor pass is what shows the
/// instrumentation the program.
static mlir::MlirOptMainConfig withLinearTeardown(const mlir::MlirOptMainConfig &config) {
  mlir::MlirOptMainConfig out = config;
  out.setPassPipelineSetupFn([config](mlir::PassManager &pm) -> mlir::LogicalResult {
    if (mlir::failed(config.setupPassPipeline(pm)))
      return mlir::failure();
    if (pm.empty())
      pm.nestAny();
    pm.addInstrumentation(std::make_unique<LinearTeardown>());
    return mlir::success();
  });
  return out;
}

/// Runs MlirOptMain on `input`, writing to `outputFilename`.
static int runOptMain(std::unique_ptr<llvm::MemoryBuffer> input, llvm::StringRef outputFilename,
                      mlir::DialectRegistry &registry, const mlir::MlirOptMainConfig &cliConfig) {
  mlir::MlirOptMainConfig config = withLinearTeardown(cliConfig);
  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}

/// Runs MlirOptMain on a `.uir` file: the program is imported (errors exit 1
/// with `file.uir:LINE:COL: error: ...`), printed as MLIR with its locations
/// and handed to MlirOptMain, so verifier and pass diagnostics still point at
/// the `.uir` statement that built the op.
static int runOnUIR(llvm::StringRef inputFilename, llvm::StringRef outputFilename,
                    mlir::DialectRegistry &registry) {
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input = mlir::openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  std::string text;
  {
    mlir::MLIRContext context(registry);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
    mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    mlir::OwningOpRef<mlir::ModuleOp> module = mlir::uop::importUIR(sourceMgr, &context);
    if (!module)
      return EXIT_FAILURE;
    llvm::raw_string_ostream os(text);
    module->print(os, mlir::OpPrintingFlags().enableDebugInfo());
    mlir::uop::eraseNestedRegions(*module);
  }
  // A name of its own, so that diagnostics at `file.uir:LINE:COL` show the
  // .uir source line rather than a line of the generated MLIR.
  auto buffer =
      llvm::MemoryBuffer::getMemBufferCopy(text, "<imported " + inputFilename.str() + ">");
  return runOptMain(std::move(buffer), outputFilename, registry, config);
}

static int optMain(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry
      .insert<mlir::uop::UopDialect, mlir::affine::AffineDialect, mlir::arith::ArithDialect,
              mlir::cf::ControlFlowDialect, mlir::emitc::EmitCDialect, mlir::func::FuncDialect,
              mlir::gpu::GPUDialect,
              mlir::LLVM::LLVMDialect, mlir::math::MathDialect, mlir::memref::MemRefDialect,
              mlir::NVVM::NVVMDialect, mlir::nvgpu::NVGPUDialect, mlir::omp::OpenMPDialect,
              mlir::scf::SCFDialect, mlir::tensor::TensorDialect, mlir::vector::VectorDialect>();
  // Interfaces the conversions need (ConvertToLLVM, inliner, bufferization).
  mlir::registerAllExtensions(registry);
  // Translations used by gpu-module-to-binary and the LLVM export.
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  mlir::registerGPUDialectTranslation(registry);
  mlir::registerOpenMPDialectTranslation(registry);
  // #nvvm.target serialization (gpu-module-to-binary, uop-cuda-pipeline).
  mlir::uop::registerUopCudaTarget(registry);

  // Upstream passes: cse, canonicalize, LICM, inliner, ...; the conversions
  // to scf/cf/LLVM/NVVM/OpenMP; the dialect passes the pipelines use.
  mlir::registerTransformsPasses();
  mlir::registerConversionPasses();
  mlir::arith::registerArithPasses();
  mlir::math::registerMathPasses();
  mlir::memref::registerMemRefPasses();
  mlir::registerSCFPasses();
  mlir::registerGPUPasses();
  mlir::gpu::registerGPUToNVVMPipeline();
  mlir::LLVM::registerLLVMPasses();
  mlir::vector::registerVectorPasses();
  mlir::emitc::registerEmitCPasses();
  mlir::uop::registerUopPasses();

  // uop's own passes and pipelines.
  mlir::uop::registerUopConversionPasses();
  mlir::uop::registerUopCodegenPasses();
  // uop-search compiles and times candidates through the execution engine.
  mlir::uop::registerUopExecutionEnginePasses();
  mlir::uop::registerUopPipelines();

  // `.uir` inputs are imported first (by extension); everything else is MLIR.
  mlir::uop::installCrashWatchdog();
  llvm::InitLLVM initLLVM(argc, argv);
  auto [inputFilename, outputFilename] =
      mlir::registerAndParseCLIOptions(argc, argv, "uop optimizer driver\n", registry);
  if (llvm::StringRef(inputFilename).ends_with(".uir"))
    return runOnUIR(inputFilename, outputFilename, registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file = mlir::openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  // Nesting past what MLIR's recursive parser and indenting printer handle
  // is an error where it gets too deep, before MlirOptMain parses anything.
  if (const char *deep = mlir::uop::findDeepNesting(file->getBuffer())) {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    sourceMgr.PrintMessage(llvm::SMLoc::getFromPointer(deep), llvm::SourceMgr::DK_Error,
                           mlir::uop::deepNestingMessage());
    return EXIT_FAILURE;
  }
  return runOptMain(std::move(file), outputFilename, registry, config);
}

/// The work runs on a thread with a large stack: MLIR's parser, verifier and
/// printer recurse once per nested region (uop.call bodies).
int main(int argc, char **argv) {
  return mlir::uop::runWithLargeStack([&] { return optMain(argc, argv); });
}
