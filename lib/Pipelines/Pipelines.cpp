//===- Pipelines.cpp - uop pass pipelines ----------------------*- C++ -*-===//

#include "Uop/Pipelines/Pipelines.h"

#include "Uop/Conversion/Passes.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

StringRef mlir::uop::stringifyOptMode(OptMode mode) {
  switch (mode) {
  case OptMode::None:
    return "none";
  case OptMode::Hand:
    return "hand";
  case OptMode::Search:
    return "search";
  }
  llvm_unreachable("unknown opt mode");
}

std::optional<mlir::uop::OptMode> mlir::uop::parseOptMode(StringRef name) {
  if (name == "none")
    return OptMode::None;
  if (name == "hand")
    return OptMode::Hand;
  if (name == "search")
    return OptMode::Search;
  return std::nullopt;
}

void mlir::uop::buildUopKernelizeStage(OpPassManager &pm, const UopCpuPipelineOptions &options) {
  // Calls are inlined first (the seed's inline_call): kernels are cut from
  // the whole graph, and uop-rangeify has no rule for a call.
  pm.addPass(createUopInlineCallsPass());
  UopKernelizePassOptions kernelize;
  kernelize.fuseReduce = options.fuseReduce;
  kernelize.layout = options.opt != OptMode::None;
  // B packed in panels as wide as the register tile uop-hand-opt (and the
  // search) give this machine.
  kernelize.layoutPanel = kernelize.layout ? getHostTileLanes() : 0;
  pm.addPass(createUopKernelizePass(kernelize));
  if (options.opt == OptMode::Hand) {
    pm.addPass(createUopHandOptPass(getHostHandOptOptions()));
  }
}

void mlir::uop::buildUopLinearizeStage(OpPassManager &pm, bool checks) {
  // L1 -> L2 (kernel graphs pass through), L2 -> L3.
  pm.addNestedPass<func::FuncOp>(createUopRangeifyPass());
  UopLinearizePassOptions linearize;
  linearize.checks = checks;
  pm.addNestedPass<func::FuncOp>(createUopLinearizePass(linearize));
  pm.addNestedPass<func::FuncOp>(createUopPrefetchPass());
  pm.addNestedPass<func::FuncOp>(createUopStashPass());
  // After uop-stash, which matches the loops it strip-mines.
  pm.addNestedPass<func::FuncOp>(createUopPrefetchNextPass());
}

void mlir::uop::buildUopEmulateLinearizeStage(OpPassManager &pm, bool checks) {
  pm.addNestedPass<func::FuncOp>(createUopRangeifyPass());
  UopLinearizePassOptions linearize;
  linearize.emulateBarriers = true;
  linearize.checks = checks;
  pm.addNestedPass<func::FuncOp>(createUopLinearizePass(linearize));
  pm.addNestedPass<func::FuncOp>(createUopPrefetchPass());
  pm.addNestedPass<func::FuncOp>(createUopEmulateGPUPass());
}

void mlir::uop::buildUopHostStage(OpPassManager &pm, const UopCpuPipelineOptions &options) {
  UopLowerHostPassOptions host;
  host.tempsAsArgs = options.hostTempsAsArgs;
  pm.addPass(createUopLowerHostPass(host));
}

void mlir::uop::buildUopLLVMStage(OpPassManager &pm, const UopCpuPipelineOptions &options) {
  // exp2/log2 as arithmetic: LLVM has no vector libm mapping of them on
  // x86, so they would be scalar calls that keep their loops from
  // vectorizing. First, so that its constants are CSE'd and hoisted.
  pm.addPass(createUopExpandMathPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Max/min reductions in vector lanes, checked, with the scalar loop as
  // the fallback (LLVM leaves the seed's `(a>b)?a:b` scalar).
  UopVectorizeMaxPassOptions vectorizeMax;
  vectorizeMax.lanes = getHostTileLanes() / 2;
  pm.addNestedPass<func::FuncOp>(createUopVectorizeMaxPass(vectorizeMax));
  // THREAD ranges: scf.parallel -> omp.parallel + omp.wsloop, or serial loops.
  if (options.openmp)
    pm.addPass(createConvertSCFToOpenMPPass());
  else
    pm.addPass(createSCFToControlFlowPass());
  // floordivsi/ceildivsi have no direct LLVM lowering.
  pm.addPass(arith::createArithExpandOpsPass());
  // L3 -> L4. (finalize-memref-to-llvm must run before convert-scf-to-cf.)
  // Vector lanes (#uop.opts<vector = W>) are vector ops on memrefs.
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true; // kernel(float *, float *, ...)
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::uop::buildUopCpuPipeline(OpPassManager &pm, const UopCpuPipelineOptions &options) {
  buildUopKernelizeStage(pm, options);
  if (options.opt == OptMode::Search) {
    // A pass pipeline runs no code, so it cannot time candidates: the hand
    // rules stand in (the execution engine searches instead).
    UopHandOptPassOptions hand;
    hand.target = "cpu";
    pm.addPass(createUopHandOptPass(hand));
  }
  buildUopLinearizeStage(pm, options.checks);
  buildUopHostStage(pm, options);
  buildUopLLVMStage(pm, options);
}

/// Registers a pipeline that runs on a builtin.module: nested under another
/// op (`func.func(uop-cpu-pipeline)`) it is a clear error, not an abort on
/// its first module pass.
template <typename Options>
static void registerModulePipeline(StringRef name, StringRef description,
                                   void (*builder)(OpPassManager &, const Options &)) {
  std::string pipeline = name.str();
  registerPassPipeline(
      name, description,
      [builder, pipeline](OpPassManager &pm, StringRef optionsStr,
                          function_ref<LogicalResult(const Twine &)> errorHandler) {
        std::optional<StringRef> anchor = pm.getOpName();
        if (anchor && *anchor != ModuleOp::getOperationName())
          return errorHandler(pipeline + " runs on a builtin.module, not nested under '" + *anchor +
                              "' (use --pass-pipeline='builtin.module(" + pipeline + ")' or --" +
                              pipeline + ")");
        Options options;
        if (failed(options.parseFromString(optionsStr)))
          return failure();
        builder(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) { optHandler(Options()); });
}

void mlir::uop::registerUopPipelines() {
  registerModulePipeline<UopCpuPipelineOptions>(
      "uop-cpu-pipeline",
      "uop shaped program or kernel graph -> scf -> LLVM dialect (buffers as bare pointers in "
      "slot order)",
      buildUopCpuPipeline);
  registerModulePipeline<UopCudaPipelineOptions>(
      "uop-cuda-pipeline",
      "uop shaped program or kernel graph -> gpu.func kernels + gpu.launch_func host -> "
      "PTX (gpu.binary); kernels take their buffers as bare pointers",
      buildUopCudaPipeline);
}
