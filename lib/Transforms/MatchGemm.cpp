//===- MatchGemm.cpp - uop-match-gemm: which kernels are GEMMs ---*- C++ -*-===//
//
// The seed's `match_gemm` (uopc/gpu.py) as an annotation: what
// mlir::uop::matchGemm finds in each kernel, written on it, so that tests and
// people can see which kernels the strategy may put on the tensor cores.
//
//===----------------------------------------------------------------------===//

#include "Uop/Transforms/Passes.h"

#include "Uop/IR/UopDialect.h"
#include "Uop/IR/UopGemm.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPMATCHGEMMPASS
#include "Uop/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

/// The attribute uop-match-gemm puts on a GEMM-shaped kernel.
static constexpr llvm::StringLiteral kGemmAttrName = "uop.gemm";

namespace {
struct UopMatchGemmPass : uop::impl::UopMatchGemmPassBase<UopMatchGemmPass> {
  using Base::Base;
  void runOnOperation() override {
    Builder b(&getContext());
    for (auto kernel : getOperation().getOps<func::FuncOp>()) {
      if (!isKernel(kernel) || kernel.isDeclaration())
        continue;
      std::optional<GemmMatch> g = matchGemm(kernel);
      if (!g) {
        kernel->removeAttr(kGemmAttrName);
        if (explain)
          kernel.emitRemark("not a GEMM: ") << explainNotGemm(kernel);
        continue;
      }
      auto operand = [&](const GemmOperand &o) {
        return b.getDictionaryAttr(
            {b.getNamedAttr("slot", b.getI64IntegerAttr(o.slot)),
             b.getNamedAttr("offset", b.getI64IntegerAttr(o.offset)),
             b.getNamedAttr("strides", b.getDenseI64ArrayAttr({o.stride[0], o.stride[1]}))});
      };
      kernel->setAttr(kGemmAttrName,
                      b.getDictionaryAttr({b.getNamedAttr("m", b.getI64IntegerAttr(g->m)),
                                           b.getNamedAttr("n", b.getI64IntegerAttr(g->n)),
                                           b.getNamedAttr("k", b.getI64IntegerAttr(g->k)),
                                           b.getNamedAttr("a", operand(g->a)),
                                           b.getNamedAttr("b", operand(g->b)),
                                           b.getNamedAttr("in", TypeAttr::get(g->inType)),
                                           b.getNamedAttr("acc", TypeAttr::get(g->accType)),
                                           b.getNamedAttr("out", TypeAttr::get(g->outType)),
                                           b.getNamedAttr("exact", b.getBoolAttr(g->exactProducts))}));
    }
  }
};
} // namespace
