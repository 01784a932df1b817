//===- Gradient.cpp - the uop-gradient pass -----------------------*- C++ -*-===//
//
// Adds `@<func>_grad`, returning the loss and its gradients with respect to
// chosen inputs, built by mlir::uop::gradient (the seed's autodiff).
//
//===----------------------------------------------------------------------===//

#include "Uop/Transforms/Autodiff.h"
#include "Uop/Transforms/Passes.h"

#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <map>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPGRADIENTPASS
#include "Uop/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {
/// Shares structurally equal ops of `fn`, as the seed's hash consing: which
/// values are one node decides the gradient's accumulation order. Exact, as
/// the seed's cache (and the Tensor frontend's) is: MLIR's CSE would also
/// merge `x + y` with `y + x` (commutative ops), which the seed keeps apart.
/// Only side-effect-free ops without regions are shared.
void hashCons(func::FuncOp fn) {
  std::map<std::vector<const void *>, Value> consed;
  for (Operation &op : llvm::make_early_inc_range(fn.getBody().front())) {
    if (op.getNumResults() != 1 || op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      continue;
    std::vector<const void *> key{op.getName().getAsOpaquePointer(),
                                  op.getPropertiesAsAttribute().getAsOpaquePointer(),
                                  op.getDiscardableAttrDictionary().getAsOpaquePointer(),
                                  op.getResult(0).getType().getAsOpaquePointer()};
    for (Value v : op.getOperands())
      key.push_back(v.getAsOpaquePointer());
    auto [it, inserted] = consed.try_emplace(std::move(key), op.getResult(0));
    if (!inserted) {
      op.getResult(0).replaceAllUsesWith(it->second);
      op.erase();
    }
  }
}

struct UopGradientPass : uop::impl::UopGradientPassBase<UopGradientPass> {
  using Base::Base;

  LogicalResult run(ModuleOp module) {
    auto fn = module.lookupSymbol<func::FuncOp>(funcName);
    if (!fn)
      return emitError(module.getLoc()) << "uop-gradient: no func.func @" << funcName;
    if (fn.isDeclaration())
      return fn.emitError() << "uop-gradient: @" << funcName << " has no body";
    if (!fn.getBody().hasOneBlock())
      return fn.emitError() << "uop-gradient: @" << funcName << " has more than one block";
    auto ret = dyn_cast<func::ReturnOp>(fn.getBody().front().getTerminator());
    if (!ret || ret.getNumOperands() != 1)
      return fn.emitError() << "uop-gradient: @" << funcName
                            << " must return one value (a scalar loss)";
    Type lossType = ret.getOperand(0).getType();
    if (!isa<FloatType>(lossType) || !isFloatDType(lossType))
      return ret.emitError() << "uop-gradient: the loss must be an f32 or f16 scalar, not "
                             << lossType;
    std::string name = gradName.empty() ? funcName + "_grad" : std::string(gradName);
    // grad-name=<func> replaces the function (so that `uop-run` runs @main's gradient).
    bool replace = name == funcName;
    if (!replace && module.lookupSymbol(name))
      return fn.emitError() << "uop-gradient: @" << name << " already exists (use grad-name=)";

    // The copy that becomes the gradient function, with the seed's sharing.
    OpBuilder mb(fn);
    mb.setInsertionPointAfter(fn);
    auto gfn = cast<func::FuncOp>(mb.clone(*fn));
    gfn.setSymName(replace ? funcName + "__grad_tmp" : name);
    auto fail = [&](LogicalResult r) {
      gfn.erase();
      return r;
    };
    hashCons(gfn);
    Block &body = gfn.getBody().front();
    ret = cast<func::ReturnOp>(body.getTerminator());
    Value loss = ret.getOperand(0);

    // The inputs: arguments, or the buffer slots read.
    bool bySlot = body.getNumArguments() == 0;
    std::map<int64_t, Value> inputs;
    if (!bySlot) {
      for (BlockArgument a : body.getArguments())
        inputs[a.getArgNumber()] = a;
    } else {
      for (auto buf : body.getOps<BufferOp>()) {
        if (!isa<RankedTensorType>(buf.getType()))
          continue;
        auto [it, inserted] = inputs.try_emplace(static_cast<int64_t>(buf.getSlot()), buf);
        if (!inserted)
          return fail(buf.emitError() << "uop-gradient: slot " << buf.getSlot() << " is read as "
                                      << it->second.getType() << " and as " << buf.getType()
                                      << "; differentiate a program that reads each slot once");
      }
    }
    const char *what = bySlot ? "buffer slot" : "argument";
    SmallVector<Value> targets;
    if (wrt.empty()) {
      for (auto &[i, v] : inputs)
        if (isFloatDType(getDType(v.getType())))
          targets.push_back(v);
      if (targets.empty())
        return fail(fn.emitError() << "uop-gradient: @" << funcName << " has no float input to "
                                   << "differentiate by");
    }
    for (int64_t i : wrt) {
      auto it = inputs.find(i);
      if (it == inputs.end()) {
        auto d =
            fn.emitError() << "uop-gradient: wrt=" << i << ": @" << funcName
                           << (bySlot ? " reads no tensor uop.buffer slot " : " has no argument ")
                           << i << " (it has " << inputs.size() << " " << what
                           << (inputs.size() == 1 ? "" : "s");
        if (bySlot && !inputs.empty()) {
          d << ":";
          for (auto &kv : inputs)
            d << " " << kv.first;
        }
        d << ")";
        return fail(d);
      }
      if (!isFloatDType(getDType(it->second.getType())))
        return fail(fn.emitError()
                    << "uop-gradient: wrt=" << i << ": " << what << " " << i << " is "
                    << it->second.getType() << "; gradients are of float inputs");
      targets.push_back(it->second);
    }

    OpBuilder b(ret);
    FailureOr<SmallVector<Value>> grads = gradient(b, loss, targets);
    if (failed(grads)) {
      gfn.erase();
      return failure();
    }
    SmallVector<Value> results{loss};
    results.append(grads->begin(), grads->end());
    func::ReturnOp::create(b, ret.getLoc(), results);
    ret.erase();
    SmallVector<Type> types;
    for (Value v : results)
      types.push_back(v.getType());
    gfn.setFunctionType(FunctionType::get(&getContext(), body.getArgumentTypes(), types));
    hashCons(gfn);
    if (replace) {
      gfn.setSymName(funcName);
      fn.erase();
    }
    return success();
  }

  void runOnOperation() override {
    if (failed(run(getOperation())))
      signalPassFailure();
  }
};
} // namespace
