//===- AttachTarget.cpp - the uop-attach-target pass -----------*- C++ -*-===//
//
// Attaches the module's `#uop.target`, as upstream's nvvm-attach-target
// attaches an NVVM target to GPU modules: the one step of a pipeline that
// decides the machine; every later pass reads the attribute.
//
//===----------------------------------------------------------------------===//

#include "Uop/Transforms/Passes.h"

#include "Uop/IR/UopTarget.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPATTACHTARGETPASS
#include "Uop/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {
struct UopAttachTargetPass : uop::impl::UopAttachTargetPassBase<UopAttachTargetPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<TargetKind> k = symbolizeTargetKind(kind);
    if (!k) {
      emitError(module.getLoc(), "uop-attach-target: unknown kind '")
          << kind << "' (expected cpu or cuda)";
      return signalPassFailure();
    }
    // A module's own target of the kind wanted stays, unless one is named.
    TargetAttr own = module->getAttrOfType<TargetAttr>(kTargetAttrName);
    if (target.empty() && own && own.getKind() == *k)
      return;
    std::string error;
    FailureOr<TargetAttr> t = parseTarget(&getContext(), target, *k, error);
    if (failed(t)) {
      emitError(module.getLoc(), "uop-attach-target: ") << error;
      return signalPassFailure();
    }
    setTarget(module, *t);
  }
};
} // namespace
