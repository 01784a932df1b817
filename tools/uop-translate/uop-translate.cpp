//===- uop-translate.cpp - the uop translation driver ----------*- C++ -*-===//
//
// mlir-translate with uop's translations: `--import-uir`, `--export-uir`,
// `--uop-to-llvmir` (uop-cpu-pipeline, then LLVM IR optimized for the CPU)
// and `--uop-to-ptx` (uop-cuda-pipeline, then the kernels' PTX), both with
// the compile options uop-run and uop-compile take (--mcpu, --chip, --opt,
// ...). Every translation from a program reads `.uir` by extension, as
// uop-opt does.
//
//===----------------------------------------------------------------------===//

#include "Uop/ExecutionEngine/CompileOptions.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/Pipelines/Pipelines.h"
#include "Uop/Support/LargeStack.h"
#include "Uop/Target/CPU.h"
#include "Uop/Target/Program.h"
#include "Uop/Target/UIR.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

/// The compile options of the command line (--mcpu, --chip, --opt, ...)
/// with the targets they name, resolved in `ctx`; failure after a
/// diagnostic on `module`.
static FailureOr<std::pair<uop::CompileOptions, uop::CompileTargets>>
compileOptions(ModuleOp module, uop::CompileTarget target) {
  std::string error;
  FailureOr<uop::CompileOptions> options = uop::getCompileOptionsFromCL(error);
  if (failed(options))
    return emitError(module.getLoc(), error), failure();
  options->target = target;
  FailureOr<uop::CompileTargets> targets =
      uop::resolveTargets(*options, module.getContext(), error);
  if (failed(targets))
    return emitError(module.getLoc(), error), failure();
  return std::make_pair(*options, *targets);
}

/// `--uop-to-llvmir`: the tool composes the pipeline and the CPU target's
/// translation (the target itself runs no uop pass).
static void registerToLLVMIRTranslation() {
  uop::registerProgramTranslation(
      "uop-to-llvmir",
      "uop program -> uop-cpu-pipeline -> LLVM IR optimized for the CPU (--mcpu, default: host)",
      [](ModuleOp module, raw_ostream &os) -> LogicalResult {
        auto options = compileOptions(module, uop::CompileTarget::CPU);
        if (failed(options))
          return failure();
        uop::UopCpuPipelineOptions pipeline;
        uop::setPipelineOptions(options->first, options->second, pipeline);
        pipeline.hostTempsAsArgs = false; // a program that runs on its own
        PassManager pm(module.getContext());
        uop::buildUopCpuPipeline(pm, pipeline);
        if (failed(pm.run(module)))
          return failure();
        if (module.lookupSymbol<LLVM::LLVMFuncOp>("main") &&
            failed(uop::addPackedEntry(module, "main")))
          return failure();
        llvm::LLVMContext ctx;
        auto llvmModule =
            uop::translateToOptimizedLLVMIR(module, ctx, options->first.codegen);
        if (!llvmModule)
          return failure();
        llvmModule->print(os, nullptr);
        return success();
      },
      [](DialectRegistry &registry) {
        registry.insert<LLVM::LLVMDialect>();
        uop::registerCpuTranslations(registry);
      });
}

/// `--uop-to-ptx`: uop-cuda-pipeline, then the PTX of the kernels' gpu.binary
/// (one `.entry` per kernel, buffers as `.param .u64` pointers).
static void registerToPTXTranslation() {
  uop::registerProgramTranslation(
      "uop-to-ptx", "uop program -> uop-cuda-pipeline -> PTX of every kernel (--chip=sm_90)",
      [](ModuleOp module, raw_ostream &os) -> LogicalResult {
        auto options = compileOptions(module, uop::CompileTarget::CUDA);
        if (failed(options))
          return failure();
        uop::UopCudaPipelineOptions pipeline;
        uop::setPipelineOptions(options->first, options->second, pipeline);
        PassManager pm(module.getContext());
        uop::buildUopCudaPipeline(pm, pipeline);
        if (failed(pm.run(module)))
          return failure();
        FailureOr<std::string> ptx = uop::getPTX(module);
        if (failed(ptx))
          return failure();
        os << *ptx;
        return success();
      },
      [](DialectRegistry &registry) { uop::registerUopCudaTarget(registry); });
}

/// The work runs on a thread with a large stack: MLIR's parser, verifier and
/// printer recurse once per nested region (uop.call bodies).
int main(int argc, char **argv) {
  return uop::runWithLargeStack([&] {
    uop::registerCompileCLOptions(/*withTarget=*/false);
    uop::registerUIRTranslations();
    registerToLLVMIRTranslation();
    registerToPTXTranslation();
    return int(failed(mlirTranslateMain(argc, argv, "uop translation driver\n")));
  });
}
