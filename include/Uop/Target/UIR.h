//===- UIR.h - the .uir text format -----------------------------*- C++ -*-===//
//
// Import and export of the uopc seed's `.uir` interchange format (one
// `%name = op operands : key=value` statement per line). A program imports as
// `func.func @main` whose arguments are the program's top-level params and
// whose result is its last statement; see docs/UIR.md.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_TARGET_UIR_H
#define UOP_TARGET_UIR_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class MLIRContext;

namespace uop {

/// Parses the main buffer of `sourceMgr` as a `.uir` program and returns a
/// module holding `func.func @main`. Every op carries the
/// `FileLineColLoc` of the statement that built it. On malformed input, emits
/// one error (`file:line:col: error: ...`) on the context's diagnostic engine
/// and returns null. The result has been verified.
OwningOpRef<ModuleOp> importUIR(llvm::SourceMgr &sourceMgr, MLIRContext *context);

/// Prints the program of `module` as `.uir` text, exactly as the seed's
/// `to_uir` prints the same graph: the module must hold one function (or one
/// named `main`) whose single result is the program. Emits an error and
/// fails on ops that have no `.uir` form.
LogicalResult exportUIR(ModuleOp module, llvm::raw_ostream &os);

/// Prints the program rooted at `root` (a value of the uop dialect) as `.uir`.
/// Block arguments of `uop.call` bodies are that call's params; block
/// arguments of a function are params by position (or by their `uop.slot`
/// argument attribute).
LogicalResult exportUIR(Value root, llvm::raw_ostream &os);

/// The dialects an imported `.uir` program uses (uop, func).
void registerUIRDialects(DialectRegistry &registry);

/// Registers `--import-uir` and `--export-uir` with the mlir-translate
/// registry.
void registerUIRTranslations();

} // namespace uop
} // namespace mlir

#endif // UOP_TARGET_UIR_H
