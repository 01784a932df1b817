//===- uop-translate.cpp - the uop translation driver ----------*- C++ -*-===//
//
// mlir-translate with uop's translations: `--import-uir`, `--export-uir`,
// and `--uop-to-llvmir` (uop-cpu-pipeline, then LLVM IR optimized for the
// host CPU). Every translation from a program reads `.uir` by extension, as
// uop-opt does.
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopDialect.h"
#include "Uop/Pipelines/Pipelines.h"
#include "Uop/Target/CPU.h"
#include "Uop/Target/Program.h"
#include "Uop/Target/UIR.h"
#include "Uop/Support/LargeStack.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace mlir;

/// `--uop-to-llvmir`: the tool composes the pipeline and the CPU target's
/// translation (the target itself runs no uop pass).
static void registerToLLVMIRTranslation() {
  uop::registerProgramTranslation(
      "uop-to-llvmir",
      "uop program -> uop-cpu-pipeline -> LLVM IR optimized for the host CPU",
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

/// The work runs on a thread with a large stack: MLIR's parser, verifier and
/// printer recurse once per nested region (uop.call bodies).
int main(int argc, char **argv) {
  return uop::runWithLargeStack([&] {
    uop::registerUIRTranslations();
    registerToLLVMIRTranslation();
    return int(failed(mlirTranslateMain(argc, argv, "uop translation driver\n")));
  });
}
