//===- KernelAllocator.cpp - kernels' heap allocations via a hook -*- C++ -*-===//
//
// Defines the generic allocation functions finalize-memref-to-llvm calls
// (use-generic-functions) as calls through exported hooks the runtime's
// loader sets, with malloc/free where nothing set them.
//
//===----------------------------------------------------------------------===//

#include "Uop/Codegen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPKERNELALLOCATORPASS
#include "Uop/Codegen/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;

namespace {

/// The external function `name` of type `type`, declared if missing.
LLVM::LLVMFuncOp declare(ModuleOp m, OpBuilder &b, StringRef name, LLVM::LLVMFunctionType type) {
  if (auto f = m.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(m.getBody());
  return LLVM::LLVMFuncOp::create(b, m.getLoc(), name, type);
}

/// The exported global `name` holding a null pointer, which the loader may
/// overwrite.
void defineHook(ModuleOp m, OpBuilder &b, StringRef name) {
  if (m.lookupSymbol(name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(m.getBody());
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto global = LLVM::GlobalOp::create(b, m.getLoc(), ptr, /*isConstant=*/false,
                                       LLVM::Linkage::External, name, Attribute());
  Block *init = b.createBlock(&global.getInitializerRegion());
  b.setInsertionPointToStart(init);
  Value zero = LLVM::ZeroOp::create(b, m.getLoc(), ptr);
  LLVM::ReturnOp::create(b, m.getLoc(), zero);
}

/// Gives the declared `fn` a body: call the function `hook` points at when
/// it is set, else `fallback`, with fn's arguments, returning its result.
void defineThroughHook(ModuleOp m, OpBuilder &b, LLVM::LLVMFuncOp fn, StringRef hook,
                       LLVM::LLVMFuncOp fallback) {
  Location loc = fn.getLoc();
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  LLVM::LLVMFunctionType type = fn.getFunctionType();
  OpBuilder::InsertionGuard guard(b);
  Block *entry = fn.addEntryBlock(b);
  Block *viaHook = b.createBlock(&fn.getBody());
  Block *viaFallback = b.createBlock(&fn.getBody());
  b.setInsertionPointToStart(entry);
  Value addr = LLVM::AddressOfOp::create(b, loc, ptr, hook);
  Value target = LLVM::LoadOp::create(b, loc, ptr, addr);
  Value null = LLVM::ZeroOp::create(b, loc, ptr);
  Value isSet = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, target, null);
  LLVM::CondBrOp::create(b, loc, isSet, viaHook, viaFallback);
  bool returns = !isa<LLVM::LLVMVoidType>(type.getReturnType());
  auto finish = [&](LLVM::CallOp call) {
    if (returns)
      LLVM::ReturnOp::create(b, loc, call.getResult());
    else
      LLVM::ReturnOp::create(b, loc, ValueRange());
  };
  b.setInsertionPointToStart(viaHook);
  SmallVector<Value> operands = {target};
  operands.append(entry->args_begin(), entry->args_end());
  finish(LLVM::CallOp::create(b, loc, type, operands));
  b.setInsertionPointToStart(viaFallback);
  finish(LLVM::CallOp::create(b, loc, fallback, entry->getArguments()));
}

struct UopKernelAllocatorPass
    : mlir::uop::impl::UopKernelAllocatorPassBase<UopKernelAllocatorPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp m = getOperation();
    OpBuilder b(m.getContext());
    auto ptr = LLVM::LLVMPointerType::get(m.getContext());
    auto i64 = b.getI64Type();
    auto voidTy = LLVM::LLVMVoidType::get(m.getContext());
    struct Fn {
      StringRef name, hook, fallback;
      LLVM::LLVMFunctionType type;
    } fns[] = {
        {"_mlir_memref_to_llvm_alloc", "uop_rt_alloc_hook", "malloc",
         LLVM::LLVMFunctionType::get(ptr, {i64})},
        {"_mlir_memref_to_llvm_free", "uop_rt_free_hook", "free",
         LLVM::LLVMFunctionType::get(voidTy, {ptr})},
    };
    for (const Fn &f : fns) {
      auto fn = m.lookupSymbol<LLVM::LLVMFuncOp>(f.name);
      if (!fn || !fn.isExternal())
        continue;
      if (fn.getFunctionType() != f.type) {
        fn.emitOpError("uop-kernel-allocator: unexpected type ") << fn.getFunctionType();
        return signalPassFailure();
      }
      defineHook(m, b, f.hook);
      defineThroughHook(m, b, fn, f.hook, declare(m, b, f.fallback, f.type));
    }
  }
};

} // namespace
