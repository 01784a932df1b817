//===- PrefetchToNVVM.cpp - prefetches as NVVM instructions ----*- C++ -*-===//
//
// uop-prefetch-to-nvvm: the `llvm.prefetch`es uop-prefetch left in a GPU
// kernel (after convert-gpu-to-nvvm) become `nvvm.prefetch` into L1, since
// the NVPTX backend drops llvm.prefetch.
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPPREFETCHTONVVMPASS
#include "Uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

struct UopPrefetchToNVVMPass : mlir::uop::impl::UopPrefetchToNVVMPassBase<UopPrefetchToNVVMPass> {
  void runOnOperation() override {
    SmallVector<LLVM::Prefetch> prefetches;
    getOperation().walk([&](LLVM::Prefetch p) { prefetches.push_back(p); });
    for (LLVM::Prefetch p : prefetches) {
      OpBuilder b(p);
      // A read of data: PTX's prefetch has no write or instruction hint.
      if (p.getRw() == 0 && p.getCache() == 1) {
        Value ptr = p.getAddr();
        auto global = LLVM::LLVMPointerType::get(b.getContext(), /*addressSpace=*/1);
        if (cast<LLVM::LLVMPointerType>(ptr.getType()).getAddressSpace() == 0)
          ptr = LLVM::AddrSpaceCastOp::create(b, p.getLoc(), global, ptr);
        NVVM::PrefetchOp::create(
            b, p.getLoc(), NVVM::PrefetchCacheLevelAttr::get(b.getContext(),
                                                             NVVM::PrefetchCacheLevel::L1),
            /*evictPriority=*/nullptr, ptr, /*predicate=*/nullptr);
      }
      p.erase();
    }
  }
};

} // namespace
