//===- AttachNVVMTarget.cpp - #uop.target to #nvvm.target -------*- C++ -*-===//
//
// uop-attach-nvvm-target: the gpu.modules of a module compiled for a cuda
// #uop.target get the matching #nvvm.target (chip and PTX features), so
// that gpu-module-to-binary compiles them for the machine the module names.
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

#include "Uop/IR/UopTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPATTACHNVVMTARGETPASS
#include "Uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {
struct UopAttachNVVMTargetPass
    : mlir::uop::impl::UopAttachNVVMTargetPassBase<UopAttachNVVMTargetPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    TargetAttr target = getTargetOrDefault(module, TargetKind::CUDA);
    if (optLevel > 3) {
      emitError(module.getLoc(), "uop-attach-nvvm-target: O must be in [0, 3], got ")
          << optLevel;
      return signalPassFailure();
    }
    StringRef ptx = features.empty() ? target.getFeatures() : StringRef(features);
    auto nvvm = NVVM::NVVMTargetAttr::get(&getContext(), optLevel, "nvptx64-nvidia-cuda",
                                          target.getChip(), ptx);
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      gpuModule.setTargetsAttr(ArrayAttr::get(&getContext(), {nvvm}));
    });
  }
};
} // namespace
