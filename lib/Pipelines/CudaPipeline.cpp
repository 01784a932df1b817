//===- CudaPipeline.cpp - uop-cuda-pipeline and its stages ------*- C++ -*-===//
//
// uop programs -> gpu.func kernels + a host of gpu.launch_func -> PTX in a
// gpu.binary. The host is not lowered to the mgpu* runtime calls: the
// execution engine launches the kernels itself (CUDA driver API) from the
// PTX and the launch dimensions.
//
//===----------------------------------------------------------------------===//

#include "Uop/Pipelines/Pipelines.h"

#include "Uop/Codegen/Passes.h"
#include "Uop/Conversion/Passes.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace mlir;

/// uop-attach-target for a cuda target: `spec`, else the module's own, else
/// sm_90.
static void attachTargetForCuda(OpPassManager &pm, StringRef spec) {
  mlir::uop::UopAttachTargetPassOptions target;
  target.target = spec.str();
  target.kind = "cuda";
  pm.addPass(mlir::uop::createUopAttachTargetPass(target));
}

/// The toolkit whose libdevice gpu-module-to-binary links (math functions
/// lower to its __nv_* calls): `given`, else the first of $CUDA_ROOT,
/// $CUDA_HOME, $CUDA_PATH and /usr/local/cuda that has it. "" leaves it to
/// MLIR's own default.
static std::string findCudaToolkit(StringRef given) {
  if (!given.empty())
    return given.str();
  SmallVector<std::string> candidates;
  for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *v = std::getenv(var); v && *v)
      candidates.push_back(v);
  candidates.push_back("/usr/local/cuda");
  for (const std::string &dir : candidates) {
    SmallString<128> libdevice(dir);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(libdevice))
      return dir;
  }
  return "";
}

void mlir::uop::buildUopCudaStage(OpPassManager &pm, PipelineStage stage,
                                  const UopCudaPipelineOptions &options) {
  switch (stage) {
  case PipelineStage::Kernelize:
    attachTargetForCuda(pm, options.target);
    // Calls are inlined first (the seed's inline_call).
    pm.addPass(createUopInlineCallsPass());
    // Reductions with few outputs split in two: threads for the chip.
    pm.addPass(createUopSplitReducePass());
    {
      UopKernelizePassOptions kernelize;
      kernelize.fuseReduce = options.fuseReduce;
      kernelize.multiOutput = options.multiOutput;
      pm.addPass(createUopKernelizePass(kernelize));
    }
    return;
  case PipelineStage::Opts: {
    // The seed's gpu_opt_choice for every kernel that names no opts.
    UopHandOptPassOptions hand;
    hand.maxThreads = options.maxThreads;
    // CUDA C has no lowering of TMA and wgmma: mma.sync there.
    hand.warpgroup = options.codegen != CodegenPath::CudaC;
    pm.addPass(createUopHandOptPass(hand));
    return;
  }
  case PipelineStage::Linearize: {
    // GEMMs on the tensor cores (opts tc) are lowered to loops first;
    // uop-rangeify takes the rest.
    pm.addNestedPass<func::FuncOp>(createUopLowerGemmPass());
    pm.addNestedPass<func::FuncOp>(createUopRangeifyPass());
    UopLinearizePassOptions linearize;
    linearize.gpu = true;
    linearize.checks = options.checks;
    pm.addNestedPass<func::FuncOp>(createUopLinearizePass(linearize));
    pm.addNestedPass<func::FuncOp>(createUopPrefetchPass());
    return;
  }
  case PipelineStage::Host: {
    UopLowerHostPassOptions host;
    host.tempsAsArgs = options.hostTempsAsArgs;
    pm.addPass(createUopLowerHostPass(host));
    // Global scratch buffers are temporaries of the host like the others.
    UopToGPUPassOptions toGPU;
    toGPU.tempsAsArgs = options.hostTempsAsArgs;
    pm.addPass(createUopToGPUPass(toGPU));
    return;
  }
  case PipelineStage::Lower:
    break;
  }
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (options.codegen == CodegenPath::CudaC) {
    // CUDA C (the seed's CUDARenderer); nvcc compiles it (Target/C).
    UopToEmitCPassOptions toC;
    toC.cuda = true;
    pm.addPass(createUopToEmitCPass(toC));
    return;
  }
  UopAttachNVVMTargetPassOptions target;
  target.optLevel = options.optLevel;
  target.features = options.features;
  pm.addPass(createUopAttachNVVMTargetPass(target));
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  // ldmatrix, mma.sync and cp.async, TMA, mbarriers and wgmma
  // (uop-lower-gemm) -> nvvm, before the rest of the kernel goes to NVVM,
  // and before scf -> cf: the wgmma accumulators an scf.for carries are
  // converted with the loop (as block arguments of cf they would be left
  // unconverted).
  device.addPass(createConvertNVGPUToNVVMPass());
  device.addPass(createSCFToControlFlowPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true; // one .param .u64 per buffer
  device.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  // NVVM ops that LLVM has no intrinsic for (mbarrier.try_wait.parity, of
  // the warpgroup kernels) -> inline PTX.
  device.addPass(createConvertNVVMToLLVMPass());
  // The warpgroup kernels' tensor maps: parameters after the buffers.
  device.addPass(createUopTensorMapsToNVVMPass());
  device.addPass(createUopPrefetchToNVVMPass());
  device.addPass(createUopDynamicSharedToNVVMPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa"; // PTX text; needs no ptxas
  binary.toolkitPath = findCudaToolkit(options.toolkit);
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::uop::buildUopCudaPipeline(OpPassManager &pm, const UopCudaPipelineOptions &options) {
  for (PipelineStage stage : kPipelineStages)
    buildUopCudaStage(pm, stage, options);
}

void mlir::uop::registerUopCudaTarget(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                  index::IndexDialect, LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  NVVM::NVVMDialect, nvgpu::NVGPUDialect, scf::SCFDialect, ub::UBDialect,
                  vector::VectorDialect>();
  // convert-gpu-to-nvvm converts the other dialects of a kernel through
  // their ConvertToLLVM interfaces.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
}

FailureOr<std::string> mlir::uop::getPTX(ModuleOp module, StringRef name) {
  auto binary = dyn_cast_or_null<gpu::BinaryOp>(SymbolTable::lookupSymbolIn(module, name));
  if (!binary)
    return emitError(module.getLoc(), "no gpu.binary @")
           << name << " (run uop-cuda-pipeline first)";
  for (Attribute attr : binary.getObjects()) {
    auto object = dyn_cast<gpu::ObjectAttr>(attr);
    if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
      continue;
    StringRef ptx = object.getObject().getValue();
    // A math function that libdevice should have defined.
    for (size_t at = ptx.find(".extern .func"); at != StringRef::npos;
         at = ptx.find(".extern .func", at + 1)) {
      // `.extern .func (.param .b32 func_retval0) __nv_exp2f(`
      StringRef decl = ptx.substr(at, ptx.find('\n', at) - at);
      size_t nv = decl.find("__nv_");
      if (nv != StringRef::npos)
        return binary.emitOpError("calls ")
                   << decl.substr(nv).take_until([](char c) { return c == '(' || c == ' '; })
                   << ", a libdevice function, but libdevice "
                   << "was not linked: no CUDA toolkit found (uop-cuda-pipeline's toolkit= "
                   << "option, or $CUDA_HOME)",
               failure();
    }
    return ptx.str();
  }
  return binary.emitOpError("holds no PTX (compile with gpu-module-to-binary{format=isa})"),
         failure();
}
