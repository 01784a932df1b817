//===- uop-translate.cpp - the uop translation driver ----------*- C++ -*-===//
//
// mlir-translate with uop's translations: `--import-uir`, `--export-uir`,
// `--uop-to-llvmir` (uop-cpu-pipeline, then LLVM IR optimized for the CPU),
// upstream's `--mlir-to-cpp` (an EmitC module printed),
// `--uop-to-ptx` (uop-cuda-pipeline, then the kernels' PTX), `--uop-to-c`
// and `--uop-to-cuda` (the execution engine's C path: the C or CUDA C it
// compiles), all with the compile options uop-run and uop-compile take
// (--mcpu, --chip, --opt, ...). Every translation from a program reads
// `.uir` by extension, as uop-opt does.
//
//===----------------------------------------------------------------------===//

#include "Uop/ExecutionEngine/CompileOptions.h"
#include "Uop/ExecutionEngine/ExecutionEngine.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/Pipelines/Pipelines.h"
#include "Uop/Support/LargeStack.h"
#include "Uop/Target/C.h"
#include "Uop/Target/CPU.h"
#include "Uop/Target/Program.h"
#include "Uop/Target/UIR.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

/// The compile options of the command line (--mcpu, --chip, --opt, ...)
/// with the targets they name, resolved in `ctx`; failure after a
/// diagnostic on `module`.
static FailureOr<std::pair<mlir::uop::CompileOptions, mlir::uop::CompileTargets>>
compileOptions(ModuleOp module, mlir::uop::CompileTarget target) {
  std::string error;
  FailureOr<mlir::uop::CompileOptions> options = mlir::uop::getCompileOptionsFromCL(error);
  if (failed(options))
    return emitError(module.getLoc(), error), failure();
  options->target = target;
  if (options->codegenPath != mlir::uop::CodegenPath::LLVM)
    return emitError(module.getLoc(), "--codegen=")
               << mlir::uop::stringifyCodegenPath(options->codegenPath)
               << " has its own translation: --uop-to-c or --uop-to-cuda",
           failure();
  FailureOr<mlir::uop::CompileTargets> targets =
      mlir::uop::resolveTargets(*options, module.getContext(), error);
  if (failed(targets))
    return emitError(module.getLoc(), error), failure();
  return std::make_pair(*options, *targets);
}

/// `--uop-to-llvmir`: the tool composes the pipeline and the CPU target's
/// translation (the target itself runs no uop pass).
static void registerUopToLLVMIRTranslation() {
  mlir::uop::registerProgramTranslation(
      "uop-to-llvmir",
      "uop program -> uop-cpu-pipeline -> LLVM IR optimized for the CPU (--mcpu, default: host)",
      [](ModuleOp module, raw_ostream &os) -> LogicalResult {
        auto options = compileOptions(module, mlir::uop::CompileTarget::CPU);
        if (failed(options))
          return failure();
        mlir::uop::UopCpuPipelineOptions pipeline;
        mlir::uop::setPipelineOptions(options->first, options->second, pipeline);
        pipeline.hostTempsAsArgs = false; // a program that runs on its own
        PassManager pm(module.getContext());
        mlir::uop::buildUopCpuPipeline(pm, pipeline);
        if (failed(pm.run(module)))
          return failure();
        if (module.lookupSymbol<LLVM::LLVMFuncOp>("main") &&
            failed(mlir::uop::addPackedEntry(module, "main")))
          return failure();
        llvm::LLVMContext ctx;
        auto llvmModule =
            mlir::uop::translateToOptimizedLLVMIR(module, ctx, options->first.codegen);
        if (!llvmModule)
          return failure();
        llvmModule->print(os, nullptr);
        return success();
      },
      [](DialectRegistry &registry) {
        registry.insert<LLVM::LLVMDialect>();
        mlir::uop::registerCpuTranslations(registry);
      });
}

/// `--uop-to-ptx`: uop-cuda-pipeline, then the PTX of the kernels' gpu.binary
/// (one `.entry` per kernel, buffers as `.param .u64` pointers).
static void registerUopToPTXTranslation() {
  mlir::uop::registerProgramTranslation(
      "uop-to-ptx", "uop program -> uop-cuda-pipeline -> PTX of every kernel (--chip=sm_90)",
      [](ModuleOp module, raw_ostream &os) -> LogicalResult {
        auto options = compileOptions(module, mlir::uop::CompileTarget::CUDA);
        if (failed(options))
          return failure();
        mlir::uop::UopCudaPipelineOptions pipeline;
        mlir::uop::setPipelineOptions(options->first, options->second, pipeline);
        PassManager pm(module.getContext());
        mlir::uop::buildUopCudaPipeline(pm, pipeline);
        if (failed(pm.run(module)))
          return failure();
        FailureOr<std::string> ptx = mlir::uop::getPTX(module);
        if (failed(ptx))
          return failure();
        os << *ptx;
        return success();
      },
      [](DialectRegistry &registry) { mlir::uop::registerUopCudaTarget(registry); });
}

/// `--uop-to-c` and `--uop-to-cuda`: the C (CUDA C) the execution engine's
/// C path compiles for the program (the seed's render_c and
/// CUDARenderer), its plan a comment at the top.
static void registerUopToCTranslations() {
  auto translate = [](mlir::uop::CompileTarget target) {
    return [target](ModuleOp module, raw_ostream &os) -> LogicalResult {
      std::string error;
      FailureOr<mlir::uop::CompileOptions> options = mlir::uop::getCompileOptionsFromCL(error);
      if (failed(options))
        return emitError(module.getLoc(), error), failure();
      options->target = target;
      FailureOr<std::string> source = mlir::uop::translateProgramToC(module, *options);
      if (failed(source))
        return failure();
      os << *source;
      return success();
    };
  };
  auto dialects = [](DialectRegistry &registry) {
    mlir::uop::registerCTranslation(registry);
    mlir::uop::registerUopCudaTarget(registry);
  };
  mlir::uop::registerProgramTranslation(
      "uop-to-c",
      "uop program -> C: one function per kernel and a host that runs the plan (the C that "
      "--codegen=c compiles; --mcpu, --opt, ...)",
      translate(mlir::uop::CompileTarget::CPU), dialects);
  mlir::uop::registerProgramTranslation(
      "uop-to-cuda",
      "uop program -> CUDA C: extern \"C\" __global__ kernels and a host of launches (the "
      "CUDA C that --codegen=cuda-c compiles; --chip=sm_90)",
      translate(mlir::uop::CompileTarget::CUDA), dialects);
}

/// The work runs on a thread with a large stack: MLIR's parser, verifier and
/// printer recurse once per nested region (uop.call bodies).
int main(int argc, char **argv) {
  return mlir::uop::runWithLargeStack([&] {
    mlir::uop::registerCompileCLOptions(/*withTarget=*/false);
    mlir::uop::registerUIRTranslations();
    registerUopToLLVMIRTranslation();
    registerUopToPTXTranslation();
    registerUopToCTranslations();
    // Upstream's EmitC printer (an EmitC module in, C/C++ out), to read what
    // uop-opt --uop-to-emitc makes.
    mlir::registerToCppTranslation();
    return int(failed(mlirTranslateMain(argc, argv, "uop translation driver\n")));
  });
}
