//===- UIRRegistration.cpp - .uir translations -----------------*- C++ -*-===//

#include "Uop/IR/UopDialect.h"
#include "Uop/Target/Program.h"
#include "Uop/Target/UIR.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
  // From a program, .uir or .mlir (by extension). The arith dialect is
  // registered so that a lowered program is reported op by op ("not an op of
  // the uop dialect") rather than as an unknown dialect.
  static bool once =
      (registerProgramTranslation(
           "export-uir", "print a module's program as .uir",
           [](ModuleOp module, raw_ostream &os) { return uop::exportUIR(module, os); },
           [](DialectRegistry &registry) { registry.insert<arith::ArithDialect>(); }),
       true);
  (void)once;
}
