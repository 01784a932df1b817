//===- Program.cpp - read a uop program, .uir or .mlir ---------*- C++ -*-===//

#include "Uop/Target/Program.h"

#include "Uop/Target/UIR.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

OwningOpRef<ModuleOp> mlir::uop::parseProgram(llvm::SourceMgr &sourceMgr, MLIRContext *context) {
  const llvm::MemoryBuffer *main = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  OwningOpRef<ModuleOp> module;
  if (main->getBufferIdentifier().ends_with(".uir"))
    module = importUIR(sourceMgr, context);
  else
    module = parseSourceFile<ModuleOp>(sourceMgr, context);
  if (module && failed(verify(*module)))
    return nullptr;
  return module;
}

void mlir::uop::registerProgramTranslation(
    StringRef name, StringRef description,
    std::function<LogicalResult(ModuleOp, raw_ostream &)> translate,
    std::function<void(DialectRegistry &)> dialects) {
  TranslateRegistration(name, description,
                        [translate, dialects](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
                                              raw_ostream &os,
                                              MLIRContext *context) -> LogicalResult {
                          DialectRegistry registry;
                          registerUIRDialects(registry);
                          dialects(registry);
                          context->appendDialectRegistry(registry);
                          OwningOpRef<ModuleOp> module = parseProgram(*sourceMgr, context);
                          if (!module)
                            return failure();
                          return translate(*module, os);
                        });
}
