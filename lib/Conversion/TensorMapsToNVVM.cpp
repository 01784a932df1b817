//===- TensorMapsToNVVM.cpp - tensor maps as kernel parameters ---*- C++ -*-===//
//
// uop-tensor-maps-to-nvvm: the tensor-map placeholders of uop-lower-gemm's
// warpgroup kernels (an unrealized cast of no operands tagged `uop.tma = i`)
// become `!llvm.ptr` parameters after the kernel's buffers, once the kernel
// is an llvm.func (convert-gpu-to-nvvm). The runtime passes, in their place,
// device memory holding the CUtensorMap it encoded for the launch's buffer.
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPTENSORMAPSTONVVMPASS
#include "Uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

/// The placeholders of `func` by index; an error where one is malformed.
static FailureOr<SmallVector<UnrealizedConversionCastOp>> placeholders(LLVM::LLVMFuncOp func) {
  SmallVector<UnrealizedConversionCastOp> found;
  WalkResult r = func.walk([&](UnrealizedConversionCastOp cast) {
    auto index = cast->getAttrOfType<IntegerAttr>(kTensorMapAttrName);
    if (!index)
      return WalkResult::advance();
    int64_t i = index.getInt();
    if (cast.getNumOperands() != 0 || cast.getNumResults() != 1 || i < 0 || i > 64) {
      cast.emitOpError("uop-tensor-maps-to-nvvm: a tensor-map placeholder must have no operands, "
                       "one result and an index in [0, 64]");
      return WalkResult::interrupt();
    }
    if ((int64_t)found.size() <= i)
      found.resize(i + 1);
    if (found[i]) {
      cast.emitOpError("uop-tensor-maps-to-nvvm: tensor map ") << i << " has two placeholders";
      return WalkResult::interrupt();
    }
    found[i] = cast;
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return failure();
  for (auto [i, cast] : llvm::enumerate(found))
    if (!cast)
      return func.emitOpError("uop-tensor-maps-to-nvvm: no placeholder of tensor map ") << i,
             failure();
  return found;
}

namespace {
struct UopTensorMapsToNVVMPass
    : mlir::uop::impl::UopTensorMapsToNVVMPassBase<UopTensorMapsToNVVMPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      if (func.isExternal())
        continue;
      FailureOr<SmallVector<UnrealizedConversionCastOp>> maps = placeholders(func);
      if (failed(maps))
        return signalPassFailure();
      if (maps->empty())
        continue;
      auto ptr = LLVM::LLVMPointerType::get(&getContext());
      // The parameters, after the others (FunctionOpInterface's
      // insertArgument cannot rebuild an LLVM function type).
      LLVM::LLVMFunctionType type = func.getFunctionType();
      SmallVector<Type> params(type.getParams());
      params.append(maps->size(), ptr);
      func.setFunctionTypeAttr(TypeAttr::get(
          LLVM::LLVMFunctionType::get(type.getReturnType(), params, type.isVarArg())));
      if (ArrayAttr argAttrs = func.getArgAttrsAttr()) {
        SmallVector<Attribute> attrs(argAttrs.getValue());
        attrs.append(maps->size(), DictionaryAttr::get(&getContext()));
        func.setArgAttrsAttr(ArrayAttr::get(&getContext(), attrs));
      }
      Block &entry = func.getBody().front();
      for (UnrealizedConversionCastOp cast : *maps) {
        Value param = entry.addArgument(ptr, cast.getLoc());
        // Its uses: the casts to !llvm.ptr that the conversions left.
        for (Operation *user : llvm::make_early_inc_range(cast->getUsers())) {
          auto back = dyn_cast<UnrealizedConversionCastOp>(user);
          if (!back || back.getNumOperands() != 1 || back.getNumResults() != 1 ||
              back.getResult(0).getType() != ptr) {
            user->emitOpError("uop-tensor-maps-to-nvvm: a tensor map used other than as a "
                              "pointer (run after convert-nvgpu-to-nvvm and convert-gpu-to-nvvm)");
            return signalPassFailure();
          }
          back.getResult(0).replaceAllUsesWith(param);
          back.erase();
        }
        cast.erase();
      }
    }
  }
};
} // namespace
