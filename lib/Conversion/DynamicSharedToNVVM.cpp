//===- DynamicSharedToNVVM.cpp - dynamic shared memory as extern -*- C++ -*-===//
//
// uop-dynamic-shared-to-nvvm: the zero-sized global that convert-gpu-to-nvvm
// makes of gpu.dynamic_shared_memory becomes an external one, PTX's
// `.extern .shared .align 1024 .b8 __dynamic_shmem__0[];` (internal, the
// NVPTX backend prints it as one byte of static shared memory).
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPDYNAMICSHAREDTONVVMPASS
#include "Uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;

namespace {
/// The alignment of a block's dynamic shared memory: TMA's 128-byte
/// swizzle and wgmma's matrix descriptors assume 1024-byte aligned tiles.
constexpr int64_t kDynamicSharedAlign = 1024;

struct UopDynamicSharedToNVVMPass
    : mlir::uop::impl::UopDynamicSharedToNVVMPassBase<UopDynamicSharedToNVVMPass> {
  void runOnOperation() override {
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (global.getAddrSpace() != 3 || !array || array.getNumElements() != 0 ||
          !global.getSymName().starts_with("__dynamic_shmem__") || global.getInitializerRegion().getBlocks().size())
        continue;
      global.setLinkage(LLVM::Linkage::External);
      global.setAlignment(std::max<uint64_t>(global.getAlignment().value_or(0), kDynamicSharedAlign));
    }
  }
};
} // namespace
