//===- Program.cpp - read a uop program, .uir or .mlir ---------*- C++ -*-===//

#include "Uop/Target/Program.h"

#include "Uop/IR/UopTeardown.h"
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

const char *mlir::uop::findDeepNesting(StringRef text, size_t limit) {
  if (text.starts_with("ML\xefR"))
    return nullptr;
  size_t depth = 0;
  for (const char *p = text.begin(), *end = text.end(); p < end; ++p) {
    switch (*p) {
    case '"': // a string: to its closing quote, past escapes
      for (++p; p < end && *p != '"'; ++p)
        if (*p == '\\')
          ++p;
      break;
    case '/': // a comment: to the end of the line
      if (p + 1 < end && p[1] == '/')
        while (p + 1 < end && p[1] != '\n')
          ++p;
      break;
    case '{':
    case '[':
    case '(':
    case '<':
      if (++depth > limit)
        return p;
      break;
    case '>':
      if (p > text.begin() && p[-1] == '-') // `->`
        break;
      [[fallthrough]];
    case '}':
    case ']':
    case ')':
      depth -= depth > 0;
      break;
    default:
      break;
    }
  }
  return nullptr;
}

std::string mlir::uop::deepNestingMessage(size_t limit) {
  return "nested more than " + std::to_string(limit) +
         " levels deep (regions, brackets): the most a uop tool reads";
}

OwningOpRef<ModuleOp> mlir::uop::parseProgram(llvm::SourceMgr &sourceMgr, MLIRContext *context) {
  const llvm::MemoryBuffer *main = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  OwningOpRef<ModuleOp> module;
  if (main->getBufferIdentifier().ends_with(".uir")) {
    module = importUIR(sourceMgr, context);
  } else if (const char *deep = findDeepNesting(main->getBuffer())) {
    auto [line, col] = sourceMgr.getLineAndColumn(llvm::SMLoc::getFromPointer(deep));
    emitError(FileLineColLoc::get(context, main->getBufferIdentifier(), line, col))
        << deepNestingMessage();
    return nullptr;
  } else {
    module = parseSourceFile<ModuleOp>(sourceMgr, context);
  }
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
                          LogicalResult result = translate(*module, os);
                          // Freed innermost first: linear in the depth.
                          eraseNestedRegions(*module);
                          return result;
                        });
}
