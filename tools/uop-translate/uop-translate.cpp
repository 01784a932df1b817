//===- uop-translate.cpp - the uop translation driver ----------*- C++ -*-===//
//
// mlir-translate with uop's translations: `--import-uir`, `--export-uir`,
// `--uop-to-llvmir` (uop-cpu-pipeline, then LLVM IR optimized for the host
// CPU) and `--uop-to-ptx` (uop-cuda-pipeline, then the kernels' PTX). Every
// translation from a program reads `.uir` by extension, as uop-opt does.
//
//===----------------------------------------------------------------------===//

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

/// `--uop-to-llvmir`: the tool composes the pipeline and the CPU target's
/// translation (the target itself runs no uop pass).
static void registerToLLVMIRTranslation() {
  uop::registerProgramTranslation(
      "uop-to-llvmir", "uop program -> uop-cpu-pipeline -> LLVM IR optimized for the host CPU",
      [](ModuleOp module, raw_ostream &os) -> LogicalResult {
        PassManager pm(module.getContext());
        uop::buildUopCpuPipeline(pm, uop::UopCpuPipelineOptions());
        if (failed(pm.run(module)))
          return failure();
        if (module.lookupSymbol<LLVM::LLVMFuncOp>("main") &&
            failed(uop::addPackedEntry(module, "main")))
          return failure();
        llvm::LLVMContext ctx;
        auto llvmModule = uop::translateToOptimizedLLVMIR(module, ctx, uop::CpuCodegenOptions());
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

static llvm::cl::opt<std::string>
    ptxChip("chip", llvm::cl::desc("--uop-to-ptx: the GPU architecture"), llvm::cl::init("sm_90"));
static llvm::cl::opt<std::string>
    ptxFeatures("ptx-features", llvm::cl::desc("--uop-to-ptx: target features (PTX version)"),
                llvm::cl::init("+ptx80"));
static llvm::cl::opt<std::string>
    ptxToolkit("cuda-toolkit",
               llvm::cl::desc("--uop-to-ptx: the CUDA toolkit whose libdevice provides the "
                              "math functions (default: $CUDA_HOME, ..., /usr/local/cuda)"),
               llvm::cl::init(""));
static llvm::cl::opt<unsigned>
    ptxOptLevel("ptx-opt-level", llvm::cl::desc("--uop-to-ptx: LLVM optimization level (0-3)"),
                llvm::cl::init(3));

/// `--uop-to-ptx`: uop-cuda-pipeline, then the PTX of the kernels' gpu.binary
/// (one `.entry` per kernel, buffers as `.param .u64` pointers).
static void registerToPTXTranslation() {
  uop::registerProgramTranslation(
      "uop-to-ptx", "uop program -> uop-cuda-pipeline -> PTX of every kernel (--chip=sm_90)",
      [](ModuleOp module, raw_ostream &os) -> LogicalResult {
        PassManager pm(module.getContext());
        uop::UopCudaPipelineOptions options;
        options.chip = ptxChip;
        options.features = ptxFeatures;
        options.optLevel = ptxOptLevel;
        options.toolkit = ptxToolkit;
        uop::buildUopCudaPipeline(pm, options);
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
    uop::registerUIRTranslations();
    registerToLLVMIRTranslation();
    registerToPTXTranslation();
    return int(failed(mlirTranslateMain(argc, argv, "uop translation driver\n")));
  });
}
