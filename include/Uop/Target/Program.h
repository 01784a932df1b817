//===- Program.h - read a uop program, .uir or .mlir -------------*- C++ -*-===//
//
// Every uop tool reads a program the same way: `.uir` by extension through
// the importer (diagnostics at `file.uir:LINE:COL`), anything else as MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_TARGET_PROGRAM_H
#define UOP_TARGET_PROGRAM_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <functional>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class MLIRContext;

namespace uop {

/// Parses the main buffer of `sourceMgr` as a program: `.uir` (by the
/// buffer's name) through the importer, else MLIR. Returns null after a
/// diagnostic. The context needs the uop and func dialects (and whatever else
/// an MLIR input uses).
OwningOpRef<ModuleOp> parseProgram(llvm::SourceMgr &sourceMgr, MLIRContext *context);

/// Registers an `uop-translate` translation from a program to text that
/// reads its input with parseProgram, so that `.uir` and `.mlir` inputs work
/// alike. `dialects` adds what the translation needs to the registry.
void registerProgramTranslation(StringRef name, StringRef description,
                                std::function<LogicalResult(ModuleOp, raw_ostream &)> translate,
                                std::function<void(DialectRegistry &)> dialects);

} // namespace uop
} // namespace mlir

#endif // UOP_TARGET_PROGRAM_H
