//===- Pipelines.cpp - uop pass pipelines ----------------------*- C++ -*-===//

#include "Uop/Pipelines/Pipelines.h"

#include "Uop/Codegen/Passes.h"
#include "Uop/Conversion/Passes.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::uop;

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

StringRef mlir::uop::stringifyCodegenPath(CodegenPath path) {
  switch (path) {
  case CodegenPath::LLVM:
    return "llvm";
  case CodegenPath::C:
    return "c";
  case CodegenPath::CudaC:
    return "cuda-c";
  }
  llvm_unreachable("unknown codegen path");
}

std::optional<CodegenPath> mlir::uop::parseCodegenPath(StringRef name) {
  if (name == "llvm")
    return CodegenPath::LLVM;
  if (name == "c")
    return CodegenPath::C;
  if (name == "cuda-c")
    return CodegenPath::CudaC;
  return std::nullopt;
}

/// uop-attach-target for `kind` (the module's own target of that kind unless
/// `spec` names one).
static void attachTarget(OpPassManager &pm, StringRef spec, StringRef kind) {
  UopAttachTargetPassOptions target;
  target.target = spec.str();
  target.kind = kind.str();
  pm.addPass(createUopAttachTargetPass(target));
}

/// The kernelize stage both pipelines share: the machine first (the
/// strategy and layout read it), then calls inlined (the seed's
/// inline_call: kernels are cut from the whole graph, and uop-rangeify has
/// no rule for a call), then the kernels.
static void buildKernelizeStage(OpPassManager &pm, StringRef target, StringRef kind,
                                bool fuseReduce, bool layout, bool multiOutput,
                                bool fuseEpilogue = false) {
  attachTarget(pm, target, kind);
  pm.addPass(createUopInlineCallsPass());
  // GPU reductions with few outputs split in two (nothing on a CPU target).
  if (kind == "cuda")
    pm.addPass(createUopSplitReducePass());
  UopKernelizePassOptions kernelize;
  kernelize.fuseReduce = fuseReduce;
  kernelize.multiOutput = multiOutput;
  // A GPU's GEMM must stay pure for uop-lower-gemm (its tensor cores): no
  // epilogue fused into it.
  kernelize.fuseEpilogue = fuseEpilogue && kind == "cpu";
  // B packed in panels as wide as the register tile the strategy gives the
  // target (layout-panel's default).
  kernelize.layout = layout;
  pm.addPass(createUopKernelizePass(kernelize));
}

void mlir::uop::buildUopCpuStage(OpPassManager &pm, PipelineStage stage,
                                 const UopCpuPipelineOptions &options) {
  bool emulate = options.emulateGpu;
  switch (stage) {
  case PipelineStage::Kernelize:
    // The emulated GPU maps kernels as the GPU target does (its opts, no
    // CPU layout).
    if (emulate)
      buildKernelizeStage(pm, options.gpuTarget, "cuda", options.fuseReduce, /*layout=*/false,
                          options.multiOutput);
    else
      buildKernelizeStage(pm, options.target, "cpu", options.fuseReduce,
                          /*layout=*/options.opt != OptMode::None, options.multiOutput,
                          options.fuseEpilogue);
    return;
  case PipelineStage::Opts:
    // opt=search: a pass pipeline runs no code, so it cannot time
    // candidates; the hand rules stand in (the execution engine searches
    // first, and the kernels it chose keep their opts).
    if (emulate || options.opt != OptMode::None) {
      // The emulated GPU takes the GPU's choices, Hopper's warpgroup MMA
      // included (uop-emulate-mma runs TMA and wgmma thread by thread).
      pm.addPass(createUopHandOptPass());
    }
    return;
  case PipelineStage::Linearize: {
    // Emulated: GEMMs on the tensor cores (opts tc) are lowered as for the
    // GPU, their warp-level ops emulated lane by lane (uop-emulate-mma).
    if (emulate)
      pm.addNestedPass<func::FuncOp>(createUopLowerGemmPass());
    // L1 -> L2 (kernel graphs pass through), L2 -> L3.
    pm.addNestedPass<func::FuncOp>(createUopRangeifyPass());
    UopLinearizePassOptions linearize;
    linearize.checks = options.checks;
    // Emulated: kernels with barriers are linearized as for the GPU and run
    // as CPU loops split at their barriers (uop-emulate-gpu).
    linearize.emulateBarriers = emulate;
    pm.addNestedPass<func::FuncOp>(createUopLinearizePass(linearize));
    pm.addNestedPass<func::FuncOp>(createUopPrefetchPass());
    if (emulate) {
      pm.addNestedPass<func::FuncOp>(createUopEmulateMmaPass());
      pm.addNestedPass<func::FuncOp>(createUopEmulateGPUPass());
      return;
    }
    pm.addNestedPass<func::FuncOp>(createUopStashPass());
    // After uop-stash, which matches the loops it strip-mines.
    pm.addNestedPass<func::FuncOp>(createUopPrefetchNextPass());
    return;
  }
  case PipelineStage::Host: {
    UopLowerHostPassOptions host;
    host.tempsAsArgs = options.hostTempsAsArgs;
    pm.addPass(createUopLowerHostPass(host));
    return;
  }
  case PipelineStage::Lower:
    break;
  }
  // The emulated kernels are CPU loops now: LLVM (or C) compiles them for
  // the CPU.
  if (emulate)
    attachTarget(pm, options.target, "cpu");
  if (options.codegen == CodegenPath::C) {
    // The C path: lanes as loops (C has no vectors), then EmitC. No
    // uop-expand-math (libm's exp2f), no uop-vectorize-max (the seed's
    // `(a>b)?a:b` stays as it reads).
    // (Canonical addresses first: the lanes' loops see that the rows of a
    // tile are W elements apart.)
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    pm.addNestedPass<func::FuncOp>(createUopLanesToLoopsPass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    UopToEmitCPassOptions toC;
    toC.openmp = options.openmp;
    pm.addPass(createUopToEmitCPass(toC));
    return;
  }
  // exp2/log2 as arithmetic: LLVM has no vector libm mapping of them on
  // x86, so they would be scalar calls that keep their loops from
  // vectorizing. First, so that its constants are CSE'd and hoisted.
  pm.addPass(createUopExpandMathPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Max/min reductions in vector lanes, checked, with the scalar loop as
  // the fallback (LLVM leaves the seed's `(a>b)?a:b` scalar); as many lanes
  // as the target's vectors hold.
  pm.addNestedPass<func::FuncOp>(createUopVectorizeMaxPass());
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
  // Heap allocs (larger than the stack takes) through the runtime's
  // allocator, which draws from the memory budget (uop-kernel-allocator).
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
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
  pm.addPass(createUopKernelAllocatorPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::uop::buildUopCpuPipeline(OpPassManager &pm, const UopCpuPipelineOptions &options) {
  for (PipelineStage stage : kPipelineStages)
    buildUopCpuStage(pm, stage, options);
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
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) { optHandler(Options()); });
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
