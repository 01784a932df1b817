//===- UIRRegistration.cpp - .uir translations -----------------*- C++ -*-===//

#include "Uop/IR/UopDialect.h"
#include "Uop/Target/UIR.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

void mlir::uop::registerUIRDialects(DialectRegistry &registry) {
  registry.insert<uop::UopDialect, func::FuncDialect>();
}

void mlir::uop::registerUIRTranslations() {
  static TranslateToMLIRRegistration importUir(
      "import-uir", "import a .uir program as func.func @main",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) -> OwningOpRef<Operation *> {
        return importUIR(sourceMgr, context);
      },
      registerUIRDialects);
  static TranslateFromMLIRRegistration exportUir(
      "export-uir", "print a module's program as .uir",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a builtin.module");
        return uop::exportUIR(module, os);
      },
      registerUIRDialects);
}
