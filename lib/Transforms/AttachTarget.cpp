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
    std::optional<TargetKind> k = symbolizeTargetKind(kind.empty() ? StringRef("cpu") : StringRef(kind));
    if (!k) {
      emitError(module.getLoc(), "uop-attach-target: unknown kind '")
          << kind << "' (expected cpu or cuda)";
      return signalPassFailure();
    }
    // A module's own target (of the kind wanted, if one is) stays, unless
    // one is named.
    TargetAttr own = module->getAttrOfType<TargetAttr>(kTargetAttrName);
    if (target.empty() && own && (kind.empty() || own.getKind() == *k))
      return;
    std::string error;
    FailureOr<TargetAttr> t = parseTarget(&getContext(), target, *k, error);
    if (failed(t)) {
      emitError(module.getLoc(), "uop-attach-target: ") << error;
      return signalPassFailure();
    }
    // A named target of the other kind than the one asked for (a CPU
    // name given to the CUDA pipeline) would be compiled as the wrong
    // machine: say so.
    if (!kind.empty() && t->getKind() != *k) {
      emitError(module.getLoc(), "uop-attach-target: '")
          << target << "' is a " << stringifyTargetKind(t->getKind()) << " target, but a " << kind
          << " target is needed here";
      return signalPassFailure();
    }
    setTarget(module, *t);
  }
};
} // namespace
